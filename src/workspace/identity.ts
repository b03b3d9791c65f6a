/**
 * The cheap look at an open document (SPEC §5.1): one `lstat` of its path,
 * compared with the identity recorded when its content was last read
 * (confined.ts takes that one by fstat of the opened file, before reading).
 * Equal: nothing to read. Different or gone: the caller reads it again through
 * the confined path, which alone decides what the content is.
 *
 * Or no look at all, while the workspace watcher vouches for the file: a look
 * found it unchanged, a watch that was already in place before that look reports
 * every later change of it (the kernel queues the event inside the system call that
 * made it, SPEC §5.2), and that watch still lasts. The caller drains the watcher
 * first and looks again at any file an event names.
 */
import { lstatSync } from "node:fs";
import { type FileIdentity, identityOf } from "./confined.ts";

/** What a look needs of the workspace watcher (watch.ts; line tables and resolutions too). */
export interface ChangeFeed {
  /** drain the kernel's queue: changes reach every subscriber (none needed after `since`) */
  poll(since?: number): void;
  /** the watch that reports any later change of `abs` (the same number while it lasts) */
  coverage(abs: string): number | undefined;
  /** moves whenever any watch of the watcher ends: until then every coverage lasts */
  losses(): number;
}

/** A watch held since a look: its coverage() number then, and losses() when last seen lasting. */
export interface HeldWatch {
  readonly watch: number | undefined;
  losses: number;
}

/**
 * Whether the held watch still lasts: no watch of the feed ended since, or this one's
 * number stands (then remembered, so the next question is one comparison).
 */
export function watchLasts(feed: ChangeFeed, abs: string, held: HeldWatch): boolean {
  if (held.watch === undefined) return false;
  const losses = feed.losses();
  if (losses === held.losses) return true;
  if (feed.coverage(abs) !== held.watch) return false;
  held.losses = losses;
  return true;
}

/** The path's identity now and its hard links, or null when gone or no regular file (never followed). */
function look(abs: string): { identity: FileIdentity; links: number } | null {
  try {
    const s = lstatSync(abs, { throwIfNoEntry: false });
    return s?.isFile() ? { identity: identityOf(s), links: s.nlink } : null;
  } catch {
    return null;
  }
}

/** The path's identity now, or null when it is gone or no longer a regular file (never followed). */
export function currentIdentity(abs: string): FileIdentity | null {
  return look(abs)?.identity ?? null;
}

export function sameIdentity(a: FileIdentity | null, b: FileIdentity | null): boolean {
  if (a === null || b === null) return false;
  return (
    a.ino === b.ino &&
    a.mtimeMs === b.mtimeMs &&
    a.ctimeMs === b.ctimeMs &&
    a.size === b.size &&
    a.dev === b.dev
  );
}

/** A file as its holder knows it: the path and the identity its content was read with. */
export interface KnownFile {
  readonly abs: string;
  readonly identity: FileIdentity | null;
}

interface Voucher {
  /** the identity object vouched for: replaced content (a new identity) is not */
  identity: FileIdentity;
  /** the watcher whose watch and losses these are */
  feed: ChangeFeed;
  watch: number;
  losses: number;
}

/** Which known files the watcher vouches for, per holder of those files (one session's documents). */
export class WatchVouchers {
  private readonly vouched = new WeakMap<KnownFile, Voucher>();

  constructor(private readonly feed: () => ChangeFeed | undefined) {}

  /**
   * Unchanged since the last look, without a system call: only right after the caller
   * drained the watcher and saw no event naming the file.
   */
  vouches(file: KnownFile): boolean {
    const v = this.vouched.get(file);
    if (v === undefined) return false;
    const feed = this.feed();
    if (v.identity !== file.identity || feed !== v.feed) {
      this.vouched.delete(file);
      return false;
    }
    if (watchLasts(feed, file.abs, v)) return true;
    this.vouched.delete(file);
    return false;
  }

  /**
   * One `lstat`: whether the file is unchanged. When it is, has one link (a write through
   * another link is reported in that link's directory only) and a watch covered it before
   * the look, the watcher vouches for it from now on.
   */
  unchanged(file: KnownFile): boolean {
    const feed = this.feed();
    const watch = feed?.coverage(file.abs);
    const losses = feed?.losses() ?? 0;
    const now = look(file.abs);
    if (now === null || file.identity === null || !sameIdentity(now.identity, file.identity)) {
      this.vouched.delete(file);
      return false;
    }
    if (feed !== undefined && watch !== undefined && now.links === 1) {
      this.vouched.set(file, { identity: file.identity, feed, watch, losses });
    }
    return true;
  }
}
