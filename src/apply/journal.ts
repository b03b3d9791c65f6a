/**
 * Intent records of applies (SPEC §7.4 "all files or none, across a kill"): before an apply
 * creates its first temp file it writes, in a private directory outside every workspace,
 * which files it will replace, the names of its temp files and the hashes of the old and
 * new texts — fsynced, and locked (`flock`) for as long as the apply runs. After the last
 * swap it adds a commit mark. A bridge killed in between leaves the record behind,
 * unlocked; the next bridge on that workspace finishes or undoes the apply from it
 * (recover.ts). The directory is the bridge's own: created 0700, and used only while it is
 * a real directory owned by the bridge's user that nobody else may enter.
 */
import { createHash, randomBytes } from "node:crypto";
import { closeSync, fsyncSync, lstatSync, mkdirSync, writeSync } from "node:fs";
import { join } from "node:path";
import { OPEN, openAt, tryLockExclusive, unlinkAt } from "../ffi/syscalls.ts";
import { atOrBelow } from "../workspace/paths.ts";
import { stateDirRefused } from "./apply-errors.ts";

/** One file of an apply, as the record names it. */
export interface RecordEntry {
  /** workspace-relative directory ("" for the root) */
  dir: string;
  name: string;
  /** the temp file holding the new text (after an exchange: the old file) */
  tmp: string;
  /** the second name of the old file, where the file system cannot exchange */
  bak: string;
  /** SHA-256 of the text replaced, and of the text written */
  old: string;
  new: string;
}

export interface IntentRecordData {
  version: 1;
  root: string;
  pid: number;
  files: RecordEntry[];
}

/** What a recovery did with one interrupted apply. */
export interface RecoveryReport {
  at: string;
  record: string;
  /** undone: every file has its old text again; finished: its new text */
  action: "undone" | "finished";
  files: number;
  /** files that held the new text and got the old one back */
  restored: string[];
  temp_files_removed: number;
  /** files left as they were found, and why (changed since, gone, not removable) */
  left: { file: string; reason: string }[];
}

const RECORD_VERSION = 1;
const COMMITTED = ".committed";

/**
 * Where the records may live, in order: `bridge.state_dir` alone when configured; else
 * `$XDG_STATE_HOME/theodolite`, else `~/.local/state/theodolite` (a persistent file system:
 * power loss is covered, SPEC §7.4), and a directory of the user's own in the temp
 * directory for a home the bridge cannot write (kills only).
 */
export function stateDirectories(
  configured: string | null,
  env: Record<string, string | undefined>,
  tmp: string,
  uid: number,
  /** whether a directory exists: a home that does not is never created */
  exists: (dir: string) => boolean = () => true,
): string[] {
  if (configured !== null) return [configured];
  const usable = (dir: string | undefined) => dir?.startsWith("/") === true && exists(dir);
  const home = usable(env.XDG_STATE_HOME)
    ? join(env.XDG_STATE_HOME as string, "theodolite")
    : usable(env.HOME)
      ? join(env.HOME as string, ".local", "state", "theodolite")
      : undefined;
  return [...(home === undefined ? [] : [home]), join(tmp, `theodolite-${uid}`)];
}

/** The records of one workspace share this prefix: its root's realpath, digested. */
export function rootKey(rootReal: string): string {
  return createHash("sha256").update(rootReal).digest("hex").slice(0, 16);
}

type DirStat = { isDirectory(): boolean; isSymbolicLink(): boolean; uid: number; mode: number };

/**
 * Why `dir` is not private to the bridge's user, or undefined: not a directory of its own,
 * or one others may enter (`enter`: the records directory) or change (its base: another
 * user could move the records aside, or put a link in their place).
 */
export function notPrivate(stat: DirStat, uid: number, enter = true): string | undefined {
  if (stat.isSymbolicLink() || !stat.isDirectory()) return "it is not a directory";
  if (stat.uid !== uid) return `it is owned by uid ${stat.uid}`;
  if ((stat.mode & (enter ? 0o077 : 0o022)) !== 0) {
    const who = enter ? "others may enter it" : "others may change it";
    return `${who} (mode ${(stat.mode & 0o777).toString(8)})`;
  }
  return undefined;
}

/** The base of a records directory is the bridge user's, and only it may change it. */
export function baseChecked(base: string): void {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(base);
  } catch {
    throw stateDirRefused(base, "it cannot be created");
  }
  const why = notPrivate(stat, process.geteuid?.() ?? -1, false);
  if (why !== undefined) throw stateDirRefused(base, why);
}

/**
 * Does `dir` exist as a directory private to the bridge's user? One that exists and is not
 * (or, with `mustExist`, one that does not exist) is `ApplyFailed`.
 */
export function privateDirExists(dir: string, mustExist = false): boolean {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(dir);
  } catch {
    if (mustExist) throw stateDirRefused(dir, "it cannot be created");
    return false;
  }
  const why = notPrivate(stat, process.geteuid?.() ?? -1);
  if (why !== undefined) throw stateDirRefused(dir, why);
  return true;
}

/** An apply's record while the apply runs: locked, marked once every file is swapped. */
export class IntentRecord {
  private open = true;

  constructor(
    private readonly dirFd: number,
    private readonly fd: number,
    readonly name: string,
  ) {}

  /** Every file is in place: from here a recovery finishes the apply instead of undoing it. */
  committed(): void {
    const fd = openAt(this.dirFd, this.name + COMMITTED, OPEN.createRecord, 0o600);
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    fsyncSync(this.dirFd);
  }

  /**
   * The apply could not put every file back: the record stays, its lock goes, and the next
   * start of a bridge on the workspace undoes what is left (recover.ts).
   */
  abandon(): void {
    if (!this.open) return;
    this.open = false;
    closeSync(this.fd);
    closeSync(this.dirFd);
  }

  /** The apply ended (written, or everything put back): the record goes, and its lock. */
  end(): void {
    if (!this.open) return;
    this.open = false;
    try {
      unlinkAt(this.dirFd, this.name + COMMITTED);
    } catch {
      // not committed
    }
    try {
      unlinkAt(this.dirFd, this.name);
      fsyncSync(this.dirFd);
    } finally {
      closeSync(this.fd);
      closeSync(this.dirFd);
    }
  }
}

/** The bridge's records of applies: where they are kept, and how one is begun. */
export class ApplyJournal {
  /** what recoveries did (recover.ts), newest last, for session_status */
  readonly recovered: RecoveryReport[] = [];

  constructor(
    /** stateDirectories(): the first one that can be made holds new records */
    readonly dirs: readonly string[],
  ) {}

  /** Where records are looked for: each base's `applies` directory. */
  recordDirs(): string[] {
    return this.dirs.map((d) => join(d, "applies"));
  }

  /** The directory new records go to: made where it can be, checked private. */
  private recordsDir(rootReal: string): string {
    let why = "no directory configured";
    for (const base of this.dirs) {
      const dir = join(base, "applies");
      // the workspace is anyone's to write (SPEC §8): a record there could be moved or forged
      if (atOrBelow(rootReal, dir)) throw stateDirRefused(dir, "it lies inside the workspace");
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
      } catch (err) {
        why = `${dir}: ${(err as Error).message}`;
        continue;
      }
      baseChecked(base);
      privateDirExists(dir, true);
      return dir;
    }
    throw stateDirRefused(this.dirs.join(", "), why);
  }

  /** Write and lock the record of an apply about to begin; it holds every name it will use. */
  begin(rootReal: string, files: RecordEntry[]): IntentRecord {
    const dir = this.recordsDir(rootReal);
    const dirFd = openAt(null, dir, OPEN.dirHandle);
    const name = `${rootKey(rootReal)}-${randomBytes(8).toString("hex")}.json`;
    let fd: number | undefined;
    try {
      fd = openAt(dirFd, name, OPEN.createRecord, 0o600);
      tryLockExclusive(fd);
      const data: IntentRecordData = {
        version: RECORD_VERSION,
        root: rootReal,
        pid: process.pid,
        files,
      };
      const bytes = Buffer.from(JSON.stringify(data));
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
      fsyncSync(fd);
      fsyncSync(dirFd);
      return new IntentRecord(dirFd, fd, name);
    } catch (err) {
      if (fd !== undefined) {
        closeSync(fd);
        try {
          unlinkAt(dirFd, name);
        } catch {
          // the failure below is what is said
        }
      }
      closeSync(dirFd);
      throw stateDirRefused(dir, (err as Error).message);
    }
  }
}

export { COMMITTED, RECORD_VERSION };
