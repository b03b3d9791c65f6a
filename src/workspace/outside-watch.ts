/**
 * Watching the dependencies outside the root that the workspace's configuration names
 * (SPEC §5.3; outside-deps.ts finds them): a directory with everything below it, or a file
 * through a watch on its directory alone, each with a watcher of its own (watch.ts) and at
 * most OUTSIDE_MAX_WATCHES directories. A dependency that cannot be watched whole — gone,
 * unreadable, past its bound, no inotify — is named, and every answer that may depend on
 * it says so (`outside_unwatched`).
 */
import { existsSync, realpathSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { FileChange } from "./file-events.ts";
import { type OutsideDependency, outsideDependencies } from "./outside-deps.ts";
import { atOrBelow } from "./paths.ts";
import { type Subscription, WorkspaceWatcher } from "./watch.ts";

/** Directories one outside dependency may have watched. */
export const OUTSIDE_MAX_WATCHES = 1024;

interface Watched {
  dep: OutsideDependency;
  /** the watcher's root: the directory, or the file's directory */
  dir: string;
  /** the file, for a file dependency */
  file: string | null;
  watcher: WorkspaceWatcher;
}

/** One session's view: what changed outside, and what it cannot see. */
export interface OutsideSubscription {
  /** dependencies named but not watched whole (absolute paths, sorted) */
  unwatched(): string[];
  close(): void;
}

export class OutsideWatch {
  private watched = new Map<string, Watched>();
  private failed = new Map<string, OutsideDependency>();

  constructor(
    private readonly rootReal: string,
    /** a root-relative file's text, or undefined (the workspace's confined read) */
    private readonly read: (rel: string) => string | undefined,
    private readonly databaseDirs: () => string[],
  ) {}

  /**
   * Find the dependencies again (a new server life reads its configuration afresh): new
   * ones are watched from now on; one no longer named keeps its watch (other sessions may
   * be subscribed to it), within the bound of outside-deps.ts.
   */
  refresh(): void {
    const deps = outsideDependencies(this.rootReal, this.read, this.databaseDirs(), existsSync);
    for (const dep of deps) {
      if (this.watched.has(dep.path)) continue;
      const w = this.watch(dep);
      if (w === null) this.failed.set(dep.path, dep);
      else {
        this.failed.delete(dep.path);
        this.watched.set(dep.path, w);
      }
    }
  }

  private watch(dep: OutsideDependency): Watched | null {
    try {
      if (dep.kind === "tree") {
        const dir = realpathSync(dep.path);
        // a directory holding the root would watch the root twice: named, not watched
        if (atOrBelow(dir, this.rootReal)) return null;
        return { dep, dir, file: null, watcher: new WorkspaceWatcher(dir, OUTSIDE_MAX_WATCHES) };
      }
      const dir = realpathSync(dirname(dep.path));
      const file = join(dir, relative(dirname(dep.path), dep.path));
      return { dep, dir, file, watcher: new WorkspaceWatcher(dir, 1) };
    } catch {
      return null; // gone or unreadable: named as not watched
    }
  }

  /** Every change outside, delivered to `deliver`; the session polls with `poll()`. */
  subscribe(deliver: (changes: FileChange[]) => void): OutsideSubscription {
    const subs: { w: Watched; sub: Subscription }[] = [];
    for (const w of this.watched.values()) {
      const interest = (d: string) => (w.file === null ? atOrBelow(w.dir, d) : d === w.dir);
      const only = (changes: FileChange[]) => {
        const mine = w.file === null ? changes : changes.filter((c) => c.abs === w.file);
        if (mine.length > 0) deliver(mine);
      };
      subs.push({ w, sub: w.watcher.subscribe(interest, only) });
    }
    return {
      unwatched: () => {
        const out = [...this.failed.keys()];
        for (const { w, sub } of subs) {
          if (w.watcher.failed() !== null || sub.unwatched() > 0) out.push(w.dep.path);
        }
        return out.sort();
      },
      close: () => {
        for (const { sub } of subs) sub.close();
      },
    };
  }

  /** Drain every outside watcher (before a call's first request, like the root's). */
  poll(): void {
    for (const w of this.watched.values()) w.watcher.poll();
  }

  /** What is named and whether it is watched, for session_status. */
  status(): { path: string; kind: string; source: string; watched: boolean }[] {
    const out = [
      ...[...this.watched.values()].map((w) => ({ ...w.dep, watched: true })),
      ...[...this.failed.values()].map((d) => ({ ...d, watched: false })),
    ];
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  close(): void {
    for (const w of this.watched.values()) w.watcher.close();
    this.watched.clear();
    this.failed.clear();
  }
}
