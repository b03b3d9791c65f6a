/**
 * Watching a workspace for the files servers never opened (SPEC §5.2): one inotify
 * instance per workspace root, one watch per directory a registered watcher could match
 * in, and an index of the names in each watched directory. A file's attributes set (mode,
 * owner, times) are a change of it: what a fresh reader can read may differ. `poll()`
 * drains the kernel queue synchronously before a request is sent, so every change made
 * before the request arrived is delivered first; nothing runs in between (no timers).
 *
 * Never followed: symlinks (a symlinked directory is not descended into, a watched path
 * must still be its own realpath). Not watched: watch-scope.ts. At most `maxWatches`
 * directories, breadth first; the rest is reported by `status()`.
 */
import { type Dirent, readdirSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  DIRECTORY_MASK,
  ENOSPC,
  IN_ATTRIB,
  IN_CREATE,
  IN_DELETE,
  IN_DELETE_SELF,
  IN_IGNORED,
  IN_ISDIR,
  IN_MODIFY,
  IN_MOVE_SELF,
  IN_MOVED_FROM,
  IN_MOVED_TO,
  IN_Q_OVERFLOW,
  Inotify,
  type InotifyEvent,
} from "../ffi/inotify.ts";
import { coalesce, type FileChange } from "./file-events.ts";
import { atOrBelow } from "./paths.ts";
import { CACHE_TAG, excludedDirectory } from "./watch-scope.ts";
import { type WatchStatus, watchStatus } from "./watch-status.ts";

interface WatchedDirectory {
  wd: number;
  files: Set<string>;
  dirs: Set<string>;
}

interface Subscriber {
  interest: (dir: string) => boolean;
  deliver: (changes: FileChange[]) => void;
}

export interface Subscription {
  /** the subscriber's interest changed (new registrations): watch what it now asks about */
  refresh(): void;
  close(): void;
}

export class WorkspaceWatcher {
  private inotify: Inotify | null = null;
  private failure: string | null = null;
  private readonly dirs = new Map<string, WatchedDirectory>();
  private readonly byWd = new Map<number, string>();
  private readonly subscribers = new Set<Subscriber>();
  private readonly overLimit = new Set<string>();
  private kernelLimit = false;
  private overflows = 0;

  constructor(
    readonly root: string,
    readonly maxWatches: number,
  ) {}

  subscribe(
    interest: (dir: string) => boolean,
    deliver: (changes: FileChange[]) => void,
  ): Subscription {
    const sub: Subscriber = { interest, deliver };
    this.subscribers.add(sub);
    this.refresh();
    return {
      refresh: () => this.refresh(),
      close: () => {
        this.subscribers.delete(sub);
        if (this.subscribers.size === 0) this.close();
        else this.refresh();
      },
    };
  }

  private interested(dir: string): boolean {
    for (const s of this.subscribers) if (s.interest(dir)) return true;
    return false;
  }

  /**
   * Make the watched set what the subscribers ask about: new directories are watched and
   * indexed (no events: this is the baseline), ones nobody asks about any more dropped.
   */
  private refresh(): void {
    if (this.inotify === null && this.failure === null) {
      const opened = Inotify.open();
      if (opened instanceof Inotify) this.inotify = opened;
      else this.failure = opened.error;
    }
    if (this.inotify === null) return;
    for (const dir of [...this.dirs.keys()]) {
      if (this.dirs.has(dir) && !this.interested(dir)) this.removeTree(dir, null, true);
    }
    this.overLimit.clear();
    this.kernelLimit = false;
    this.addTree(this.root, null);
  }

  /**
   * Drain the kernel queue and hand every subscriber the coalesced changes in the
   * directories it asks about. Never blocks.
   */
  poll(): void {
    const inotify = this.inotify;
    if (inotify === null) return;
    const events = inotify.drain();
    if (events.length === 0) return;
    const changes: FileChange[] = [];
    if (events.some((e) => (e.mask & IN_Q_OVERFLOW) !== 0)) {
      // the queue lost events: compare every watched directory with the disk instead; the
      // watches it still reports ended are ended first (their directories are gone)
      this.overflows += 1;
      for (const e of events) if ((e.mask & IN_IGNORED) !== 0) this.apply(e, changes);
      this.rescan(inotify, changes);
    } else {
      for (const e of events) this.apply(e, changes);
    }
    const out = coalesce(changes);
    if (out.length === 0) return;
    for (const s of this.subscribers) {
      // a directory is watched while any subscriber asks about it: each hears only its own
      const mine = out.filter((c) => s.interest(dirname(c.abs)));
      if (mine.length > 0) s.deliver(mine);
    }
  }

  private apply(e: InotifyEvent, changes: FileChange[]): void {
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
    if ((e.mask & IN_ISDIR) !== 0) {
      if ((e.mask & (IN_CREATE | IN_MOVED_TO)) !== 0) {
        entry.dirs.add(e.name);
        this.addTree(abs, changes);
      } else if ((e.mask & (IN_DELETE | IN_MOVED_FROM)) !== 0) {
        entry.dirs.delete(e.name);
        this.removeTree(abs, changes, (e.mask & IN_MOVED_FROM) !== 0);
      }
      return;
    }
    if ((e.mask & (IN_DELETE | IN_MOVED_FROM)) !== 0) {
      entry.files.delete(e.name);
      changes.push({ abs, kind: "deleted" });
    } else if ((e.mask & (IN_CREATE | IN_MOVED_TO | IN_MODIFY | IN_ATTRIB)) !== 0) {
      if (e.name === CACHE_TAG && (e.mask & IN_CREATE) !== 0) {
        // a cache directory tagged itself (cargo's target/): stop watching it, quietly
        this.removeTree(dir, null, true);
        return;
      }
      const known = entry.files.has(e.name);
      entry.files.add(e.name);
      changes.push({ abs, kind: known && (e.mask & IN_CREATE) === 0 ? "changed" : "created" });
    }
  }

  /**
   * Watch `top` and everything below it that is of interest, breadth first, up to the
   * bound; with `changes`, every file found is reported as created.
   */
  private addTree(top: string, changes: FileChange[] | null): void {
    const inotify = this.inotify;
    if (inotify === null) return;
    const queue = [top];
    for (let i = 0; i < queue.length; i++) {
      const dir = queue[i] as string;
      const known = this.dirs.get(dir);
      if (known) {
        for (const d of known.dirs) queue.push(join(dir, d));
        continue;
      }
      if (!this.interested(dir) || (dir !== this.root && excludedDirectory(dir))) continue;
      if (this.dirs.size >= this.maxWatches || this.kernelLimit) {
        this.overLimit.add(dir);
        continue;
      }
      const wd = inotify.addWatch(dir, DIRECTORY_MASK);
      if (typeof wd !== "number") {
        if (wd.errno === ENOSPC) {
          this.kernelLimit = true;
          this.overLimit.add(dir);
        }
        continue; // gone meanwhile, or not readable
      }
      let entries: Dirent[];
      try {
        // the watched path must be the directory itself, never reached through a symlink
        if (realpathSync(dir) !== dir) throw new Error("moved");
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        inotify.removeWatch(wd);
        continue;
      }
      const entry: WatchedDirectory = { wd, files: new Set(), dirs: new Set() };
      for (const e of entries) {
        if (e.isDirectory()) {
          entry.dirs.add(e.name);
          queue.push(join(dir, e.name));
        } else {
          entry.files.add(e.name);
          changes?.push({ abs: join(dir, e.name), kind: "created" });
        }
      }
      this.dirs.set(dir, entry);
      this.byWd.set(wd, dir);
    }
  }

  /** Forget `top` and everything below it; with `changes`, every indexed file is deleted. */
  private removeTree(top: string, changes: FileChange[] | null, unwatch: boolean): void {
    for (const [dir, entry] of [...this.dirs]) {
      if (!atOrBelow(top, dir)) continue;
      if (changes)
        for (const f of entry.files) changes.push({ abs: join(dir, f), kind: "deleted" });
      if (unwatch) this.inotify?.removeWatch(entry.wd);
      this.byWd.delete(entry.wd);
      this.dirs.delete(dir);
    }
    for (const d of [...this.overLimit]) {
      if (atOrBelow(top, d)) this.overLimit.delete(d);
    }
  }

  /**
   * After a queue overflow: every watched directory against the disk; existing files
   * changed. Each directory's watch is added again: the kernel answers with the same
   * descriptor while that watch lasts, and with a new one when the name now holds another
   * directory (the old one removed or moved away in the lost events), which is then
   * indexed as new — its old watch would never report anything again.
   */
  private rescan(inotify: Inotify, changes: FileChange[]): void {
    for (const [dir, entry] of [...this.dirs]) {
      // removed, or replaced, as part of a subtree handled before
      if (this.dirs.get(dir) !== entry) continue;
      const wd = inotify.addWatch(dir, DIRECTORY_MASK);
      if (typeof wd !== "number") {
        this.removeTree(dir, changes, true); // gone, or no directory any more
        continue;
      }
      if (wd !== entry.wd || this.byWd.get(wd) !== dir) {
        this.removeTree(dir, changes, true);
        this.addTree(dir, changes);
        // not watched after all (the bound, a CACHEDIR.TAG now): no stray watch
        if (this.dirs.get(dir)?.wd !== wd) inotify.removeWatch(wd);
        continue;
      }
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        this.removeTree(dir, changes, true);
        continue;
      }
      const files = new Set<string>();
      const dirs = new Set<string>();
      for (const e of entries) (e.isDirectory() ? dirs : files).add(e.name);
      for (const f of entry.files) {
        changes.push({ abs: join(dir, f), kind: files.has(f) ? "changed" : "deleted" });
      }
      for (const f of files)
        if (!entry.files.has(f)) changes.push({ abs: join(dir, f), kind: "created" });
      for (const d of entry.dirs) if (!dirs.has(d)) this.removeTree(join(dir, d), changes, true);
      entry.files = files;
      const added = [...dirs].filter((d) => !entry.dirs.has(d));
      entry.dirs = dirs;
      for (const d of added) this.addTree(join(dir, d), changes);
    }
  }

  status(): WatchStatus {
    let files = 0;
    for (const e of this.dirs.values()) files += e.files.size;
    return watchStatus({
      root: this.root,
      watching: this.inotify !== null,
      failure: this.failure,
      kernelLimit: this.kernelLimit,
      maxWatches: this.maxWatches,
      watchedDirectories: this.dirs.size,
      filesIndexed: files,
      unwatched: this.overLimit,
      overflows: this.overflows,
    });
  }

  close(): void {
    this.inotify?.close();
    this.inotify = null;
    this.dirs.clear();
    this.byWd.clear();
    this.overLimit.clear();
  }
}
