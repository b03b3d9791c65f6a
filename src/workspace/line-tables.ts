/**
 * Line tables of the files a workspace's results point into, kept across calls (SPEC §5.1):
 * a reference list can name hundreds of files, and reading and splitting each on every call
 * would be most of the bridge's work for such an answer.
 *
 * A table belongs to a file, not to a path: it is keyed by the file's device and inode and
 * the line model it counts the server's lines in, so the links of one file share it. A path
 * is looked at with one `lstat` when it was opened beneath the root before with the identity
 * (device, inode, size, mtime, ctime) that `lstat` shows; otherwise it is opened beneath the
 * root again. Looked at twice, it is vouched for by watches (file-vouches.ts) and not looked
 * at while the vouch holds. A table is reused only while that identity is the one it was
 * read with, and only when that ctime was older than the read by more than a timestamp
 * tick: a change in the tick of the read could leave every timestamp as it was (git's
 * "racy" index entries). Bounded by total bytes, least recently looked up out first (a
 * vouched path or a table reused through it keeps its place); the paths seen, by count.
 */
import {
  callCost,
  columnsSize,
  type LineColumns,
  lineColumnsWithin,
} from "../text/line-columns.ts";
import type { LineModel } from "../text/line-model.ts";
import type { FileIdentity } from "./confined.ts";
import type { FileVouches, Vouch } from "./file-vouches.ts";
import { sameIdentity, unchanged } from "./identity.ts";

/** Coarser than any kernel timestamp tick (a jiffy is at most 10 ms). */
export const RACY_MARGIN_MS = 100;
export const DEFAULT_BUDGET_BYTES = 8 * 1024 * 1024;
/** Paths remembered with the identity they were opened with. */
export const MAX_PATHS = 16_384;

/** Confined looks at workspace files (SPEC §8.1); undefined when one cannot be had. */
export interface TableSource {
  /** the identity of the file a path names, opened beneath the root, not read */
  identify(abs: string): FileIdentity | undefined;
  /** its text and the identity it was read with */
  read(abs: string): { text: string; identity: FileIdentity } | undefined;
  /** the watches vouches rest on (file-vouches.ts): `identify` with a vouch where one can be had */
  vouches?: Pick<FileVouches, "identify" | "holds" | "release">;
}

/** A path opened beneath the root: the identity it showed then, and that file's key. */
export interface SeenPath {
  identity: FileIdentity;
  /** fileKey(identity), made once per identity rather than once per call */
  file: string;
  /** while it holds, the path shows `identity`: no look at the disk (file-vouches.ts) */
  vouch?: Vouch;
  /** no vouch could be had for it (a link on the way, another file system, the bound) */
  unvouched?: true;
  /** the table last used through it, reused without a lookup while it stands */
  entry?: KeptTable;
  /** the call that last found it a regular file beneath the root (call-lines.ts `present`) */
  foundBy?: object;
}

/** A table kept, as a path's record holds it for reuse (call-lines.ts). */
export interface KeptTable {
  /** the line model's key */
  readonly model: string;
  /** still held (not dropped for the budget) */
  readonly live: boolean;
  readonly identity: FileIdentity;
  /** may be reused on a later call (see settledAt) */
  readonly settled: boolean;
  readonly lines: LineColumns;
  /** callCost(lines), made once */
  readonly cost: number;
  /** the call that counted it last: a link of its file is not paid for twice */
  countedBy?: object;
  /** the call that decided its file otherwise (its own document's, past the budget) */
  decidedBy?: object;
}

interface Entry extends KeptTable {
  live: boolean;
  bytes: number;
}

/**
 * May a table read at `readAtMs` stand for the file while its identity is unchanged? Only if
 * its ctime is older than the read by more than a timestamp tick.
 */
export function settledAt(ctimeMs: number, readAtMs: number): boolean {
  return ctimeMs < readAtMs - RACY_MARGIN_MS;
}

/** The file an identity names: its device and inode. */
export function fileKey(identity: FileIdentity): string {
  return `${identity.dev}:${identity.ino}`;
}

export class LineTables {
  /** insertion order is recency order: the first entry is the least recently used */
  private readonly entries = new Map<string, Entry>();
  /** each path opened beneath the root, with the identity it had then (recency order) */
  private readonly paths = new Map<string, SeenPath>();
  private bytes = 0;
  private readCount = 0;

  constructor(
    private readonly source: TableSource,
    private readonly budgetBytes = DEFAULT_BUDGET_BYTES,
    /** wall clock in ms, the clock file timestamps are taken from (tests move it) */
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The identity of the file `abs` names now, or undefined when it cannot be opened beneath
   * the root: one `lstat` while the path shows what it showed when it was last opened.
   */
  identity(abs: string): FileIdentity | undefined {
    return this.look(abs)?.identity;
  }

  /** What is remembered of a path, without a look at it. */
  seen(abs: string): SeenPath | undefined {
    return this.paths.get(abs);
  }

  /** What is remembered of a path while its vouch holds (no look at the disk needed). */
  vouched(abs: string): SeenPath | undefined {
    const known = this.paths.get(abs);
    const vouch = known?.vouch;
    return vouch !== undefined && this.source.vouches?.holds(vouch) ? known : undefined;
  }

  /** The table kept for `file` in `model`, as it stands (no check that it may be reused). */
  keptFor(file: string, model: LineModel): KeptTable | undefined {
    return this.entries.get(`${file}:${model.key}`);
  }

  /** `identity`, with the file's key (fileKey) beside it. */
  look(abs: string): SeenPath | undefined {
    const known = this.paths.get(abs);
    if (known !== undefined) {
      const vouch = known.vouch;
      if (vouch !== undefined && this.source.vouches?.holds(vouch)) return known;
      this.paths.delete(abs);
      // the path shows what it showed: the record (identity and key) stands as it is
      if (unchanged(abs, known.identity)) {
        this.paths.set(abs, known);
        // looked at twice: worth a vouch, so that later calls need no look
        if (known.unvouched === undefined) this.vouchFor(abs, known);
        return known;
      }
    }
    const opened = this.source.identify(abs);
    return opened === undefined ? undefined : this.remember(abs, opened);
  }

  /** `known`'s vouch, which does not hold, made again (or the path marked unvouched). */
  private vouchFor(abs: string, known: SeenPath): void {
    const got = this.source.vouches?.identify(abs);
    known.vouch = undefined;
    if (got?.vouch !== undefined && sameIdentity(got.identity, known.identity)) {
      known.vouch = got.vouch;
      return;
    }
    if (got?.vouch !== undefined) this.source.vouches?.release(got.vouch);
    known.unvouched = true;
  }

  /** `cached` for the file a path was seen as, through the table last used by it. */
  cachedFor(seen: SeenPath, model: LineModel): LineColumns | undefined {
    const e = seen.entry;
    const same =
      e !== undefined && (e.identity === seen.identity || sameIdentity(e.identity, seen.identity));
    if (same && e.live && e.settled && e.model === model.key) {
      return e.lines;
    }
    const lines = this.cached(seen.identity, model, seen.file);
    if (lines !== undefined) seen.entry = this.entries.get(`${seen.file}:${model.key}`);
    return lines;
  }

  /**
   * The table kept for the file of `identity` in `model`, if it may stand for it; no read.
   * `file`: the identity's fileKey, when the caller has it.
   */
  cached(
    identity: FileIdentity,
    model: LineModel,
    file = fileKey(identity),
  ): LineColumns | undefined {
    const key = `${file}:${model.key}`;
    const cached = this.entries.get(key);
    // a path's identity as it was remembered is the very object its table was read with
    const same = cached?.identity === identity || sameIdentity(cached?.identity ?? null, identity);
    if (cached === undefined || !cached.settled || !same) return undefined;
    this.entries.delete(key);
    this.entries.set(key, cached);
    return cached.lines;
  }

  /**
   * The table of the file `abs` names, whose identity was just taken, with the server's
   * lines counted in `model`; undefined when it cannot be read; "budget" when its cost
   * (line-columns.ts callCost) would pass `maxCost`: its lines are counted, no table made.
   */
  get(
    abs: string,
    identity: FileIdentity,
    model: LineModel,
    maxCost = Number.POSITIVE_INFINITY,
  ): LineColumns | "budget" | undefined {
    const kept = this.cached(identity, model);
    if (kept !== undefined) return kept;
    this.drop(`${fileKey(identity)}:${model.key}`);
    const readAt = this.now();
    this.readCount += 1;
    const got = this.source.read(abs);
    if (got === undefined) return undefined;
    // the identity object the path's record holds (equal to the read's): reuse compares it first
    const held = this.remember(abs, got.identity).identity;
    const lines = lineColumnsWithin(got.text, model, maxCost);
    if (lines === "budget") return lines;
    const readKey = `${fileKey(held)}:${model.key}`;
    const entry: Entry = {
      model: model.key,
      live: true,
      identity: held,
      settled: settledAt(held.ctimeMs, readAt),
      lines,
      cost: callCost(lines),
      bytes: columnsSize(lines) + readKey.length * 2,
      // stamped later: present from the start, so every entry has one shape
      countedBy: undefined,
      decidedBy: undefined,
    };
    this.drop(readKey);
    if (entry.bytes <= this.budgetBytes) this.keep(readKey, entry);
    return lines;
  }

  /** files read so far (a caller yields to the event loop after one) */
  get reads(): number {
    return this.readCount;
  }

  /** entries and bytes held, for tests and memory reports */
  stats(): { entries: number; bytes: number; paths: number } {
    return { entries: this.entries.size, bytes: this.bytes, paths: this.paths.size };
  }

  private remember(abs: string, identity: FileIdentity): SeenPath {
    const before = this.paths.get(abs);
    // the path shows what it showed: its record (and vouch) stands
    if (before !== undefined && sameIdentity(before.identity, identity)) return before;
    const seen: SeenPath = { identity, file: fileKey(identity) };
    if (before?.vouch !== undefined) this.source.vouches?.release(before.vouch);
    this.paths.delete(abs);
    this.paths.set(abs, seen);
    for (const [old, record] of this.paths) {
      if (this.paths.size <= MAX_PATHS) break;
      if (record.vouch !== undefined) this.source.vouches?.release(record.vouch);
      this.paths.delete(old);
    }
    return seen;
  }

  private keep(key: string, entry: Entry): void {
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    for (const old of this.entries.keys()) {
      if (this.bytes <= this.budgetBytes) break;
      this.drop(old);
    }
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    entry.live = false;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
