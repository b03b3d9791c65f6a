/**
 * The file a call names, resolved (SPEC §8.1 step 1: realpath, inside realpath(root), a
 * regular file) — or an earlier call's resolution of the same argument, reused without a
 * system call while the workspace watcher vouches for it: the resolved path was its own
 * realpath (no link on it), a regular file in a directory a watch already covered before
 * the look (so every directory above it, up to the root, was watched too), and no drain
 * since has read an event that could make a path name something else (watch.ts
 * `namespace`: an entry created, deleted or moved, attributes changed, a watch ended).
 * The kernel queues such an event inside the system call that made the change, and a
 * reuse drains the queue first, so a change made before the call is always seen.
 * Reading stays with confined.ts, which trusts no path either way.
 */
import {
  candidatePath,
  type ResolvedFile,
  resolveWorkspaceFile,
  workspaceRootReal,
} from "./files.ts";
import type { ChangeFeed } from "./identity.ts";
import { existingWatcher } from "./watch.ts";

/** What a vouch needs of the workspace watcher (watch.ts). */
export interface NamespaceFeed extends Pick<ChangeFeed, "poll" | "coverage"> {
  /** moves whenever a drain read an event that may change what a path names */
  namespace(): number;
}

interface Vouched {
  resolved: ResolvedFile;
  feed: NamespaceFeed;
  namespace: number;
}

/** Distinct `file` arguments remembered; beyond, all are forgotten at once. */
const MAX_VOUCHED = 1024;

export class ResolutionVouchers {
  private readonly vouched = new Map<string, Vouched>();

  constructor(private readonly feedOf: (rootReal: string) => NamespaceFeed | undefined) {}

  /**
   * `resolveWorkspaceFile(root, file)`, from the last resolution while the watcher vouches;
   * `since`: when the call began (watch.ts `moment`), so that it drains the watcher once.
   * Only a reuse drains: a resolution made now is remembered with the namespace as it stood
   * before the look, and any change the queue still holds moves it at the next drain.
   * (Under a flood of renames most resolutions fail and are never remembered, so those
   * calls drain no queue of thousands of events up front.)
   */
  resolve(root: string, file: string, since?: number): ResolvedFile {
    const rootReal = workspaceRootReal(root);
    const feed = this.feedOf(rootReal);
    if (feed === undefined) return resolveWorkspaceFile(root, file);
    const key = `${rootReal}\0${file}`;
    const v = this.vouched.get(key);
    if (v !== undefined) {
      if (v.feed === feed) {
        feed.poll(since);
        if (feed.namespace() === v.namespace) return v.resolved;
      }
      this.vouched.delete(key);
    }
    const namespace = feed.namespace();
    // the watch must be in place before the look, so that it reports any change after it
    const candidate = candidatePath(rootReal, file);
    const covered = feed.coverage(candidate) !== undefined;
    const resolved = resolveWorkspaceFile(root, file);
    if (covered && resolved.abs === candidate) {
      if (this.vouched.size >= MAX_VOUCHED) this.vouched.clear();
      this.vouched.set(key, { resolved, feed, namespace });
    }
    return resolved;
  }
}

/** The bridge's: resolutions of the files tools are called with. */
const calledFiles = new ResolutionVouchers(existingWatcher);

/** A tool's `file` argument resolved (SPEC §4.2, §8.1), vouched for by the watcher when it can be. */
export function resolveCalledFile(root: string, file: string, since?: number): ResolvedFile {
  return calledFiles.resolve(root, file, since);
}
