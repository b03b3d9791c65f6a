/**
 * Line tables of the files a workspace's results point into, kept across calls (SPEC §5.1):
 * a reference list can name hundreds of files, and reading and splitting each on every call
 * would be most of the bridge's work for such an answer.
 *
 * An entry is reused only while a fresh `lstat` of its path shows the identity (device,
 * inode, size, mtime, ctime) of the descriptor it was read from, and only when that ctime was
 * older than the read by more than a timestamp tick: a change in the tick of the read could
 * leave every timestamp as it was (git's "racy" index entries). A path that became a link
 * shows no identity and is read (and refused) again. Bounded by total bytes, least recently
 * used out first.
 */
import { columnsSize, type LineColumns, lineColumnsOf } from "../text/line-columns.ts";
import type { FileIdentity } from "./confined.ts";
import { currentIdentity, sameIdentity } from "./identity.ts";

/** Coarser than any kernel timestamp tick (a jiffy is at most 10 ms). */
export const RACY_MARGIN_MS = 100;
export const DEFAULT_BUDGET_BYTES = 8 * 1024 * 1024;

/** A confined read of a file's text and the identity it was read with, or undefined. */
export type TextRead = (abs: string) => { text: string; identity: FileIdentity } | undefined;

interface Entry {
  identity: FileIdentity;
  /** may be reused on a later call (see settledAt) */
  settled: boolean;
  lines: LineColumns;
  bytes: number;
}

/**
 * May a table read at `readAtMs` stand for the file while its identity is unchanged? Only if
 * its ctime is older than the read by more than a timestamp tick.
 */
export function settledAt(ctimeMs: number, readAtMs: number): boolean {
  return ctimeMs < readAtMs - RACY_MARGIN_MS;
}

export class LineTables {
  /** insertion order is recency order: the first entry is the least recently used */
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly read: TextRead,
    private readonly budgetBytes = DEFAULT_BUDGET_BYTES,
    /** wall clock in ms, the clock file timestamps are taken from (tests move it) */
    private readonly now: () => number = Date.now,
  ) {}

  /** The line table of `abs` as it is on disk now, or undefined when it cannot be read. */
  get(abs: string): LineColumns | undefined {
    const cached = this.entries.get(abs);
    if (cached !== undefined) {
      this.drop(abs);
      if (cached.settled && sameIdentity(cached.identity, currentIdentity(abs))) {
        this.keep(abs, cached);
        return cached.lines;
      }
    }
    const readAt = this.now();
    const got = this.read(abs);
    if (got === undefined) return undefined;
    const lines = lineColumnsOf(got.text);
    const entry: Entry = {
      identity: got.identity,
      settled: settledAt(got.identity.ctimeMs, readAt),
      lines,
      bytes: columnsSize(lines) + abs.length * 2,
    };
    if (entry.bytes <= this.budgetBytes) this.keep(abs, entry);
    return lines;
  }

  /** entries and bytes held, for tests and memory reports */
  stats(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private keep(abs: string, entry: Entry): void {
    this.entries.set(abs, entry);
    this.bytes += entry.bytes;
    for (const old of this.entries.keys()) {
      if (this.bytes <= this.budgetBytes) break;
      this.drop(old);
    }
  }

  private drop(abs: string): void {
    const entry = this.entries.get(abs);
    if (entry === undefined) return;
    this.entries.delete(abs);
    this.bytes -= entry.bytes;
  }
}
