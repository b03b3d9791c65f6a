/**
 * What lets a file's line table stand without a look at the disk on every call (SPEC §5.1,
 * docs/DESIGN-NOTES.md "Line tables vouched by watches"): a watch on the file's own inode,
 * added through the descriptor the confined walk opened, and one on each directory from `/`
 * down to it (the root's own ancestors too), added before the walk with no link among them. Whatever could make the
 * path show other bytes is then an event: a write or truncation through any link (the file's
 * IN_MODIFY), its links made or removed, a rename over it, a chmod (IN_ATTRIB), the file or
 * a directory on the way moved or removed (IN_MOVE_SELF, IN_DELETE_SELF), a directory's
 * mode changed (its own IN_ATTRIB). Events are taken at the start of every call (`sync`),
 * so everything done before the call began is seen. A file's event ends its vouches; a
 * directory's, an overflow or a watch the kernel ended end all of them. Only on local file
 * systems (inotify sees no other host's changes); a write through a shared mapping is never
 * an event, as inotify(7) says: a stated limit (SPEC §5.1).
 */
import { readFileSync } from "node:fs";
import { fileSystemType } from "../ffi/file-attributes.ts";
import {
  IN_ATTRIB,
  IN_DELETE_SELF,
  IN_DONT_FOLLOW,
  IN_IGNORED,
  IN_MODIFY,
  IN_MOVE_SELF,
  IN_ONLYDIR,
  IN_Q_OVERFLOW,
} from "../ffi/inotify.ts";
import { type FileIdentity, statWorkspaceFileWith } from "./confined.ts";
import { resolveWorkspaceFile } from "./files.ts";
import type { InotifyHub, Watches } from "./watch-hub.ts";

/**
 * Files vouched for at most, per workspace: past it, files are looked at as before. An
 * eighth of the user's watches at most (fs.inotify.max_user_watches, shared with every
 * directory the bridge and other programs watch).
 */
export function vouchBound(): number {
  try {
    const n = Number(readFileSync("/proc/sys/fs/inotify/max_user_watches", "utf8").trim());
    return Number.isSafeInteger(n) && n > 0 ? Math.min(4096, Math.floor(n / 8)) : 1024;
  } catch {
    return 1024;
  }
}

const FILE_MASK = IN_MODIFY | IN_ATTRIB | IN_MOVE_SELF | IN_DELETE_SELF;
const DIR_MASK = IN_ATTRIB | IN_MOVE_SELF | IN_DELETE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW;

/** statfs(2) types of local file systems whose every change inotify reports. */
const LOCAL_FILE_SYSTEMS = new Set([
  0xef53, // ext2/3/4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0xf2f52010, // f2fs
  0x2fc12fc1, // zfs
  0x794c7630, // overlayfs
]);

/** One file's vouch: it holds while `valid` and made in the current generation. */
export interface Vouch {
  readonly gen: number;
  readonly wd: number;
  /** the path it vouches for */
  readonly path: string;
  valid: boolean;
}

export class FileVouches {
  private watches: Watches | null | undefined;
  /** bumped when every vouch ends: a directory's event, an overflow */
  private gen = 0;
  private readonly byWd = new Map<number, Set<Vouch>>();
  /** directories watched (path → descriptor), and their descriptors */
  private readonly dirs = new Map<string, number>();
  private readonly dirWds = new Set<number>();
  private count = 0;
  /** paths whose own file's watch heard a change, until the workspace's watch takes them */
  private heard = new Set<string>();

  constructor(
    private readonly rootReal: string,
    private readonly hub: InotifyHub,
    private readonly max = vouchBound(),
  ) {}

  /** Every event queued so far taken into account: before a call looks at its files. */
  sync(): void {
    if (!this.watches) return;
    for (const e of this.watches.drain()) {
      if ((e.mask & IN_Q_OVERFLOW) !== 0 || (this.dirWds.has(e.wd) && e.name === "")) {
        this.endAll();
        continue;
      }
      const vouches = this.byWd.get(e.wd);
      if (vouches === undefined) continue;
      this.byWd.delete(e.wd);
      for (const v of vouches) {
        v.valid = false;
        this.heard.add(v.path);
        this.count -= 1;
        if ((e.mask & IN_IGNORED) === 0) this.watches.removeWatch(v.wd);
      }
    }
  }

  /**
   * The identity of the file `abs` names beneath the root, with a vouch where one can be
   * had: `abs` is its own real path, the directories down to it are watched before the walk
   * (`prepare`) and the inode the walk opened after it. Undefined when it cannot be opened.
   */
  identify(abs: string): { identity: FileIdentity; vouch?: Vouch } | undefined {
    try {
      const resolved = resolveWorkspaceFile(this.rootReal, abs);
      const may = resolved.abs === abs && this.prepare(abs);
      const { identity, got } = statWorkspaceFileWith(this.rootReal, abs, resolved, (fd) =>
        may ? this.vouch(fd, abs) : undefined,
      );
      return { identity, vouch: got };
    } catch {
      return undefined;
    }
  }

  /**
   * The paths whose file changed as heard by its own watch since the last take: a write
   * through a link no watched directory names reaches the servers through these (watch.ts).
   */
  takeHeard(): string[] {
    this.sync();
    if (this.heard.size === 0) return [];
    const out = [...this.heard];
    this.heard = new Set();
    return out;
  }

  holds(v: Vouch): boolean {
    return v.valid && v.gen === this.gen;
  }

  /**
   * Before the walk to `real` (a path beneath the root that is its own real path): each
   * directory from `/` down to it watched, none a link. False: no vouch for it.
   */
  private prepare(real: string): boolean {
    const watches = this.open();
    if (watches === null || this.count >= this.max) return false;
    if (!real.startsWith(`${this.rootReal}/`)) return false;
    // from "/": a directory above the root renamed or replaced re-points the path too
    const parts = real.split("/");
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/") || "/";
      if (this.dirs.has(dir)) continue;
      const wd = watches.addWatch(dir, DIR_MASK);
      if (typeof wd !== "number") return false;
      this.dirs.set(dir, wd);
      this.dirWds.add(wd);
    }
    return true;
  }

  /** After the walk: the vouch for the regular file `fd` holds open, or undefined. */
  private vouch(fd: number, path: string): Vouch | undefined {
    const watches = this.watches;
    if (!watches || this.count >= this.max) return undefined;
    const type = fileSystemType(fd);
    if (type === null || !LOCAL_FILE_SYSTEMS.has(type)) return undefined;
    // through the descriptor: the very inode the walk opened, whatever the path shows now
    const wd = watches.addWatch(`/proc/self/fd/${fd}`, FILE_MASK);
    if (typeof wd !== "number") return undefined;
    const v: Vouch = { gen: this.gen, wd, path, valid: true };
    const set = this.byWd.get(wd) ?? new Set<Vouch>();
    set.add(v);
    this.byWd.set(wd, set);
    this.count += 1;
    return v;
  }

  /** A vouch no longer needed (its path forgotten). */
  release(v: Vouch): void {
    if (!this.holds(v)) return;
    v.valid = false;
    const set = this.byWd.get(v.wd);
    if (set?.delete(v)) {
      this.count -= 1;
      if (set.size === 0) this.byWd.delete(v.wd);
      this.watches?.removeWatch(v.wd);
    }
  }

  close(): void {
    if (this.watches) this.watches.close();
    this.watches = null;
  }

  private open(): Watches | null {
    if (this.watches === undefined) {
      const got = this.hub.watches();
      this.watches = "error" in got ? null : got;
    }
    return this.watches;
  }

  /** Every vouch ended and every watch let go: they are made again as files are looked at. */
  private endAll(): void {
    this.gen += 1;
    for (const [wd, set] of this.byWd) for (const _ of set) this.watches?.removeWatch(wd);
    for (const wd of this.dirs.values()) this.watches?.removeWatch(wd);
    this.byWd.clear();
    this.dirs.clear();
    this.dirWds.clear();
    this.count = 0;
  }
}
