/**
 * Line tables of files that results point into, kept across calls (SPEC §5 column
 * conversion). A reference list can name hundreds of files; reading, decoding and splitting
 * each of them on every call was most of the bridge's time for such answers.
 *
 * Reads go through the confined reader (SPEC §8.1: only files beneath the workspace root),
 * and an entry remembers the identity (device, inode, size, mtime, ctime) of the descriptor
 * it was read from. A later call reuses it only while a fresh `lstat` of the same path shows
 * the same identity (the look open documents take, src/workspace/identity.ts) — it reads no
 * content, and a path that became a link, or whose directory did, shows another identity
 * or none and is read (and refused) again — and only when
 * its ctime was older than the read by more than the kernel's timestamp granularity: a file
 * changed in the same clock tick as our read could otherwise keep its identity with new
 * content (the "racy" case git's index has too), so such an entry is re-read next time.
 * ctime cannot be set by a user, unlike mtime.
 *
 * Most lookups need no system call at all: a file whose directory the workspace watcher
 * (SPEC §5.2) was already watching when it was read, and that is still watched by that
 * same watch, is reported by the kernel in the watcher's queue on any change after that
 * moment. The first lookup of a call drains that queue, every reported file is forgotten,
 * and an entry read under a watch that still lasts needs no stat. Files outside any watch
 * (an unwatched directory, a path through a link, no session watching) keep the stat.
 * Entries are per workspace root (what one root may read another may not), bounded by
 * total bytes, least recently used out first.
 */
import { columnsSize, type LineColumns, lineColumnsOf } from "../lsp/line-columns.ts";
import { type FileIdentity, readWorkspaceText } from "../workspace/confined.ts";
import type { FileChange } from "../workspace/file-events.ts";
import { workspaceRootReal } from "../workspace/files.ts";
import {
  type ChangeFeed,
  currentIdentity,
  sameIdentity,
  watchLasts,
} from "../workspace/identity.ts";
import { existingWatcher, onWorkspaceChanges } from "../workspace/watch.ts";

/** Coarser than any kernel timestamp tick (a jiffy is at most 10 ms). */
export const RACY_MARGIN_MS = 100;
const DEFAULT_BUDGET_BYTES = 8 * 1024 * 1024;

/** A confined read: the text and the identity of the descriptor it came from, or undefined. */
export type ConfinedRead = (
  root: string,
  abs: string,
  maxBytes: number,
) => { text: string; identity: FileIdentity; links: number } | undefined;

interface Entry {
  /** the watch that covered the file when it was read: no stat while it lasts */
  watch: number | undefined;
  /** the feed's losses() when the watch was last known to last */
  losses: number;
  /** the cache's clock at the last use */
  used: number;
  identity: FileIdentity;
  /** may be reused on a later call (see settledAt) */
  settled: boolean;
  lines: LineColumns;
  bytes: number;
}

/**
 * May a table read at `readAtMs` stand for the file while its identity is unchanged? Only if
 * its ctime is older than the read by more than a timestamp tick: a change in the same tick
 * as the read could leave every timestamp as it was.
 */
export function settledAt(ctimeMs: number, readAtMs: number): boolean {
  return ctimeMs < readAtMs - RACY_MARGIN_MS;
}

const confinedRead: ConfinedRead = (root, abs, maxBytes) => {
  try {
    const { text, identity, links } = readWorkspaceText(root, abs, maxBytes);
    return { text, identity, links };
  } catch {
    return undefined; // outside the root, missing, too large, not UTF-8…: no table
  }
};

export class LineIndexCache {
  /** root → path → entry: what one root may read another may not */
  private readonly byRoot = new Map<string, Map<string, Entry>>();
  private bytes = 0;
  private count = 0;
  /** moves on every hit: the least recently used entries go first when over budget */
  private clock = 0;

  constructor(
    private readonly budgetBytes = DEFAULT_BUDGET_BYTES,
    /** wall clock in ms, the clock file timestamps are taken from (tests move it) */
    private readonly now: () => number = Date.now,
    private readonly read: ConfinedRead = confinedRead,
    /** the watcher of a workspace root, when one runs */
    private readonly feedOf: (root: string) => ChangeFeed | undefined = () => undefined,
  ) {}

  /**
   * Line tables for one call's result: the watcher's queue is drained at the first lookup
   * (the server answered after the call's own drain), then `get` per file.
   */
  reader(root: string, maxBytes: number): (abs: string) => LineColumns | undefined {
    let feed: ChangeFeed | undefined | null = null;
    return (abs) => {
      if (feed === null) {
        feed = this.feedOf(root);
        feed?.poll();
      }
      return this.get(root, abs, maxBytes, feed);
    };
  }

  /**
   * The line table of `abs` as it is on disk now, or undefined when the confined reader
   * will not give its text (outside `root`, missing, over maxBytes, not UTF-8…). `feed`,
   * already drained, spares the stat of files it covers.
   */
  get(root: string, abs: string, maxBytes: number, feed?: ChangeFeed): LineColumns | undefined {
    let entries = this.byRoot.get(root);
    const cached = entries?.get(abs);
    if (cached !== undefined) {
      if (cached.identity.size <= maxBytes && this.stillValid(cached, abs, feed)) {
        cached.used = ++this.clock;
        return cached.lines;
      }
      this.drop(root, abs);
    }
    // the watch must exist before the read: a change during or after it is then reported
    const watch = feed?.coverage(abs);
    const losses = feed?.losses() ?? 0;
    const readAt = this.now();
    const got = this.read(root, abs, maxBytes);
    if (got === undefined) return undefined;
    const lines = lineColumnsOf(got.text);
    const entry: Entry = {
      // a write through another hard link is reported in that link's directory only
      watch: got.links === 1 ? watch : undefined,
      losses,
      identity: got.identity,
      settled: settledAt(got.identity.ctimeMs, readAt),
      lines,
      bytes: columnsSize(lines) + (root.length + abs.length) * 2,
      used: ++this.clock,
    };
    if (entry.bytes <= this.budgetBytes) {
      if (entries === undefined) {
        entries = new Map();
        this.byRoot.set(root, entries);
      }
      entries.set(abs, entry);
      this.bytes += entry.bytes;
      this.count += 1;
      this.evict();
    }
    return lines;
  }

  private stillValid(entry: Entry, abs: string, feed: ChangeFeed | undefined): boolean {
    if (feed !== undefined && watchLasts(feed, abs, entry)) return true;
    if (!entry.settled) return false;
    return sameIdentity(entry.identity, currentIdentity(abs));
  }

  /** Changes the watcher reported: their tables are read again when next asked for. */
  forget(changes: readonly FileChange[]): void {
    for (const c of changes) {
      for (const [root, entries] of this.byRoot) if (entries.has(c.abs)) this.drop(root, c.abs);
    }
  }

  /** entries and bytes held, for tests and memory reports */
  stats(): { entries: number; bytes: number } {
    return { entries: this.count, bytes: this.bytes };
  }

  private drop(root: string, abs: string): void {
    const entries = this.byRoot.get(root);
    const entry = entries?.get(abs);
    if (entries === undefined || entry === undefined) return;
    entries.delete(abs);
    this.bytes -= entry.bytes;
    this.count -= 1;
  }

  /** Over budget (rare: tables are small): least recently used out first. */
  private evict(): void {
    if (this.bytes <= this.budgetBytes) return;
    const all: { root: string; abs: string; used: number }[] = [];
    for (const [root, entries] of this.byRoot) {
      for (const [abs, entry] of entries) all.push({ root, abs, used: entry.used });
    }
    all.sort((a, b) => a.used - b.used);
    for (const { root, abs } of all) {
      if (this.bytes <= this.budgetBytes) break;
      this.drop(root, abs);
    }
  }
}

/** The process's cache, shared by every session (entries are per workspace root). */
export const lineIndexCache = new LineIndexCache(
  DEFAULT_BUDGET_BYTES,
  Date.now,
  confinedRead,
  (root) => existingWatcher(workspaceRootReal(root)),
);
onWorkspaceChanges((changes) => lineIndexCache.forget(changes));
