/**
 * What the workspace watcher watches and knows (SPEC §5.2): one inotify watch per watched
 * directory and the names in it, the directories left unwatched (whole subtrees, each
 * counted), and the links inside the root it follows (watch-links.ts). Kernel events are
 * applied here as file changes; watch.ts drains the queue and delivers them.
 *
 * A file's attributes set is a change of it — or, when the bridge could read it before and
 * cannot now, its deletion, and its creation once it can again: a server that read it
 * while it was unreadable must read it afresh (pyright keeps a failed read otherwise,
 * docs/LANGUAGE-SERVERS.md#pyright-unreadable-files). A package directory in a container
 * (watch-scope.ts) is a change of its own path.
 */
import { accessSync, constants, type Dirent, lstatSync, readdirSync, realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import {
  DIRECTORY_MASK,
  ENOSPC,
  IN_ATTRIB,
  IN_CREATE,
  IN_DELETE,
  IN_DELETE_SELF,
  IN_DONT_FOLLOW,
  IN_IGNORED,
  IN_ISDIR,
  IN_MODIFY,
  IN_MOVE_SELF,
  IN_MOVED_FROM,
  IN_MOVED_TO,
  IN_ONLYDIR,
  type InotifyEvent,
} from "../ffi/inotify.ts";
import type { ChangeKind, FileChange } from "./file-events.ts";
import { atOrBelow } from "./paths.ts";
import type { Watches } from "./watch-hub.ts";
import { linkTarget, MAX_LINKS } from "./watch-links.ts";
import { unwatchedSubtrees, watchOrder } from "./watch-order.ts";
import { CACHE_TAG, directoryScope, scopeByName } from "./watch-scope.ts";
import { countDeep, tooLong, type WalkRules, walkTree } from "./watch-walk.ts";

export interface WatchedDirectory {
  wd: number;
  files: Set<string>;
  dirs: Set<string>;
  /** entries the bridge found unreadable when their attributes were last set */
  unreadable: Set<string>;
  /** its subdirectories are packages, followed by their own paths only */
  container: boolean;
}

/** What the index asks of the watcher's subscribers. */
export interface IndexRules {
  interested(dir: string): boolean;
  isSource(name: string): boolean;
}

/** Directories counted below the watched ones at most (each walk), at least this many. */
const MIN_COUNT_LIMIT = 65_536;
/** What the root's ancestors are watched for: themselves moved or removed. */
const ABOVE_MASK = IN_MOVE_SELF | IN_DELETE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW;

function readable(abs: string, dir: boolean): boolean {
  try {
    accessSync(abs, dir ? constants.R_OK | constants.X_OK : constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

function isLink(abs: string): boolean {
  try {
    return lstatSync(abs).isSymbolicLink();
  } catch {
    return false;
  }
}

export class WatchIndex {
  readonly dirs = new Map<string, WatchedDirectory>();
  readonly byWd = new Map<number, string>();
  /**
   * The root's ancestors, watched for themselves: one moved or removed leaves the root's
   * path naming another directory (or none), as if the root itself had moved.
   */
  private readonly above = new Map<number, string>();
  /** topmost unwatched directories → directories in each subtree */
  readonly unwatched = new Map<string, number>();
  /** link path → its real target inside the root */
  readonly links = new Map<string, string>();
  linksNotFollowed = 0;
  kernelLimit = false;
  /** the bound was reached (the priority order decides what is watched) */
  boundHit = false;
  /** a count stopped at its limit: unwatched is a lower bound */
  truncated = false;
  private readonly countLimit: number;

  constructor(
    /** its watches in the bridge's inotify instance (watch-hub.ts) */
    readonly watches: Watches,
    readonly root: string,
    readonly maxWatches: number,
    private readonly rules: IndexRules,
  ) {
    this.countLimit = Math.max(MIN_COUNT_LIMIT, 8 * maxWatches);
  }

  private walkRules(limit = this.countLimit): WalkRules {
    const { rules } = this;
    return { interested: (d) => rules.interested(d), isSource: (n) => rules.isSource(n), limit };
  }

  /** Leave `dir`'s subtree unwatched, counted. */
  private leave(dir: string): void {
    const counted = tooLong(dir)
      ? countDeep(dirname(dir), basename(dir), this.countLimit)
      : walkTree(dir, this.walkRules());
    this.truncated ||= counted.truncated;
    if (counted.count > 0) this.unwatched.set(dir, counted.count);
  }

  /**
   * Watch `top` and everything below it that is of interest, breadth first, up to the
   * bound; with `changes`, every file found is reported created. `count`: what is left
   * unwatched is counted (a rebalance that follows counts it otherwise).
   */
  addTree(top: string, changes: FileChange[] | null, count = true): void {
    const queue = [top];
    for (let i = 0; i < queue.length; i++) {
      const dir = queue[i] as string;
      const known = this.dirs.get(dir);
      if (!known) {
        if (dir !== this.root) {
          const scope = directoryScope(dir);
          if (scope === "excluded" || scope === "package") continue;
        }
        if (!this.rules.interested(dir) || this.unwatched.has(dir)) continue;
        const full = this.dirs.size >= this.maxWatches || this.kernelLimit;
        if (full) this.boundHit = true;
        if (full || tooLong(dir)) {
          if (count || !full) this.leave(dir);
          continue;
        }
      }
      const entry = known ?? this.watchOne(dir, changes);
      if (!entry) continue;
      for (const d of entry.dirs) {
        if (!entry.container || scopeByName(join(dir, d)) === "container") queue.push(join(dir, d));
      }
    }
  }

  /** One directory watched and indexed (no deeper); null when it cannot be. */
  watchOne(dir: string, changes: FileChange[] | null): WatchedDirectory | null {
    const wd = this.watches.addWatch(dir, DIRECTORY_MASK);
    if (typeof wd !== "number") {
      if (wd.errno === ENOSPC) {
        this.kernelLimit = true;
        this.boundHit = true;
        this.leave(dir);
      }
      return null; // gone meanwhile, or not readable
    }
    let entries: Dirent[];
    try {
      // the watched path must be the directory itself, never reached through a symlink
      if (realpathSync(dir) !== dir) throw new Error("moved");
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      this.watches.removeWatch(wd);
      return null;
    }
    const container = dir !== this.root && scopeByName(dir) === "container";
    const entry: WatchedDirectory = {
      wd,
      files: new Set(),
      dirs: new Set(),
      unreadable: new Set(),
      container,
    };
    this.dirs.set(dir, entry);
    this.byWd.set(wd, dir);
    if (dir === this.root) this.watchAbove();
    for (const e of entries) {
      const abs = join(dir, e.name);
      if (e.isDirectory()) {
        entry.dirs.add(e.name);
        if (container && scopeByName(abs) === "package") changes?.push({ abs, kind: "created" });
        continue;
      }
      entry.files.add(e.name);
      changes?.push({ abs, kind: "created" });
      if (e.isSymbolicLink()) this.relink(abs, changes);
    }
    return entry;
  }

  /** Forget `top` and everything below it; with `changes`, every indexed file is deleted. */
  removeTree(top: string, changes: FileChange[] | null, unwatch: boolean): void {
    for (const link of [...this.links.keys()])
      if (atOrBelow(top, link)) this.relink(link, changes, true);
    for (const [dir, entry] of [...this.dirs]) {
      if (!atOrBelow(top, dir)) continue;
      if (changes) {
        for (const f of entry.files) changes.push({ abs: join(dir, f), kind: "deleted" });
        for (const d of entry.dirs) {
          const abs = join(dir, d);
          if (entry.container && scopeByName(abs) === "package")
            changes.push({ abs, kind: "deleted" });
        }
      }
      if (unwatch) this.watches.removeWatch(entry.wd);
      this.byWd.delete(entry.wd);
      this.dirs.delete(dir);
    }
    for (const d of [...this.unwatched.keys()]) if (atOrBelow(top, d)) this.unwatched.delete(d);
  }

  /**
   * A link added, gone or pointing elsewhere: the files it makes known under its path are
   * created or deleted there. `gone`: the link is no more, whatever the disk says.
   */
  relink(link: string, changes: FileChange[] | null, gone = false): void {
    const before = this.links.get(link);
    let now: string | null = null;
    if (!gone && (before !== undefined || this.links.size < MAX_LINKS)) {
      now = linkTarget(this.root, link);
    } else if (!gone && before === undefined && linkTarget(this.root, link) !== null) {
      this.linksNotFollowed += 1;
    }
    if (before === now || (before === undefined && now === null)) return;
    if (before !== undefined) {
      this.links.delete(link);
      if (changes) this.filesUnder(before, link, "deleted", changes);
    }
    if (now !== null) {
      this.links.set(link, now);
      if (changes) this.filesUnder(now, link, "created", changes);
    }
  }

  /** Every indexed file at or below `target`, reported under `as` instead. */
  private filesUnder(target: string, as: string, kind: ChangeKind, changes: FileChange[]): void {
    const parent = this.dirs.get(dirname(target));
    if (parent?.files.has(basename(target))) changes.push({ abs: as, kind });
    for (const [dir, entry] of this.dirs) {
      if (!atOrBelow(target, dir)) continue;
      for (const f of entry.files)
        changes.push({ abs: as + join(dir, f).slice(target.length), kind });
    }
  }

  /**
   * A mode change that turned readability: the entry deleted (now unreadable) or created
   * (readable again), a directory's files with it. False when readability did not turn.
   */
  private turned(
    entry: WatchedDirectory,
    name: string,
    abs: string,
    dir: boolean,
    changes: FileChange[],
  ): boolean {
    const now = readable(abs, dir);
    if (now === !entry.unreadable.has(name)) return false;
    if (now) entry.unreadable.delete(name);
    else entry.unreadable.add(name);
    const kind: ChangeKind = now ? "created" : "deleted";
    if (!dir) changes.push({ abs, kind });
    else {
      for (const [d, e] of this.dirs) {
        if (atOrBelow(abs, d)) for (const f of e.files) changes.push({ abs: join(d, f), kind });
      }
    }
    return true;
  }

  private watchAbove(): void {
    const known = new Set(this.above.values());
    for (let dir = dirname(this.root); !known.has(dir); dir = dirname(dir)) {
      const wd = this.watches.addWatch(dir, ABOVE_MASK);
      if (typeof wd === "number") this.above.set(wd, dir);
      if (dir === dirname(dir)) break;
    }
  }

  /** One kernel event as file changes. */
  apply(e: InotifyEvent, changes: FileChange[]): void {
    if (this.above.has(e.wd)) {
      // those watches are on what the path led through then (the directories below the one
      // that moved went with it): the path is watched anew, whole, with the root
      for (const wd of this.above.keys()) {
        if (wd !== e.wd || (e.mask & IN_IGNORED) === 0) this.watches.removeWatch(wd);
      }
      this.above.clear();
      if (this.dirs.has(this.root)) this.removeTree(this.root, changes, true);
      return;
    }
    const dir = this.byWd.get(e.wd);
    if (dir === undefined) return; // a watch already dropped
    if (e.name === "") {
      if ((e.mask & IN_IGNORED) !== 0) this.byWd.delete(e.wd);
      const gone = (e.mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)) !== 0;
      // a subdirectory's removal is reported by its parent; only the root has none
      if (gone && dir === this.root) this.removeTree(dir, changes, true);
      return;
    }
    const entry = this.dirs.get(dir);
    if (!entry) return;
    const abs = join(dir, e.name);
    const added = (e.mask & (IN_CREATE | IN_MOVED_TO)) !== 0;
    const removed = (e.mask & (IN_DELETE | IN_MOVED_FROM)) !== 0;
    if ((e.mask & IN_ISDIR) !== 0) {
      const pkg = entry.container && scopeByName(abs) === "package";
      if (added) {
        entry.dirs.add(e.name);
        if (pkg) changes.push({ abs, kind: "created" });
        else this.addTree(abs, changes);
      } else if (removed) {
        entry.dirs.delete(e.name);
        entry.unreadable.delete(e.name);
        if (pkg) changes.push({ abs, kind: "deleted" });
        else this.removeTree(abs, changes, (e.mask & IN_MOVED_FROM) !== 0);
      } else if ((e.mask & IN_ATTRIB) !== 0) {
        this.turned(entry, e.name, abs, true, changes);
      }
      return;
    }
    if (removed) {
      entry.files.delete(e.name);
      entry.unreadable.delete(e.name);
      changes.push({ abs, kind: "deleted" });
      if (this.links.has(abs)) this.relink(abs, changes, true);
    } else if (added || (e.mask & (IN_MODIFY | IN_ATTRIB)) !== 0) {
      if (e.name === CACHE_TAG && (e.mask & IN_CREATE) !== 0) {
        // a cache directory tagged itself (cargo's target/): stop watching it, quietly
        this.removeTree(dir, null, true);
        return;
      }
      const attribOnly = (e.mask & (IN_CREATE | IN_MOVED_TO | IN_MODIFY)) === 0;
      if (attribOnly && this.turned(entry, e.name, abs, false, changes)) return;
      const known = entry.files.has(e.name);
      entry.files.add(e.name);
      changes.push({ abs, kind: known && (e.mask & IN_CREATE) === 0 ? "changed" : "created" });
      if (added && (this.links.has(abs) || isLink(abs))) this.relink(abs, changes);
    }
  }

  /**
   * Over the bound: list everything of interest, rank it (watch-order.ts: open documents'
   * directories in `focus` first) and watch the first `maxWatches`, quietly; the rest is
   * counted as unwatched subtrees.
   */
  rebalance(focus: ReadonlySet<string>): void {
    const walk = walkTree(this.root, this.walkRules());
    const order = watchOrder(walk.nodes, focus);
    const wanted = new Set(order.slice(0, this.maxWatches).map((i) => walk.nodes[i]?.path));
    // what is wanted hangs from the root: each directory dropped alone, in one pass
    for (const [dir, entry] of [...this.dirs]) {
      if (wanted.has(dir)) continue;
      this.watches.removeWatch(entry.wd);
      this.byWd.delete(entry.wd);
      this.dirs.delete(dir);
    }
    for (const link of [...this.links.keys()]) {
      if (!this.dirs.has(dirname(link))) this.relink(link, null, true);
    }
    this.kernelLimit = false;
    for (const i of order) {
      if (this.dirs.size >= this.maxWatches || this.kernelLimit) break;
      const path = walk.nodes[i]?.path as string;
      if (!this.dirs.has(path)) this.watchOne(path, null);
    }
    this.unwatched.clear();
    for (const u of unwatchedSubtrees(walk.nodes, (i) =>
      this.dirs.has(walk.nodes[i]?.path ?? ""),
    )) {
      this.unwatched.set(u.path, u.count);
    }
    this.truncated = walk.truncated;
    this.boundHit = true;
  }

  /** Unwatched directories whose subtree `interest` asks about. */
  unwatchedFor(interest: (dir: string) => boolean): number {
    let n = 0;
    for (const [dir, count] of this.unwatched) if (interest(dir)) n += count;
    return n;
  }

  /** Forget everything (the watcher lets go of its watches). */
  clear(): void {
    this.dirs.clear();
    this.byWd.clear();
    this.unwatched.clear();
    this.links.clear();
  }
}
