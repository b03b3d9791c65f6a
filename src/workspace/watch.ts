/**
 * Watching a workspace for the files servers never opened (SPEC §5.2): one watcher per
 * workspace root (and per outside dependency, §5.3), shared by the sessions that
 * subscribe, each hearing the directories it asks about; its watches live in the bridge's
 * one inotify instance (watch-hub.ts). `poll()` drains the kernel queue synchronously
 * before a request is sent, so every change made before the request arrived is delivered
 * first; nothing runs in between (no timers). What is watched and how events become
 * changes: watch-index.ts; what never is: watch-scope.ts.
 *
 * Links are never descended into: a change is delivered under its real path and under
 * every path inside the root a link gives it (watch-links.ts). At most `maxWatches`
 * directories; past the bound they are chosen by priority (watch-order.ts) — the
 * directories of the subscribers' open documents first, again whenever one is opened in
 * an unwatched directory — and the rest is counted (`status()`, `Subscription.unwatched`).
 */
import { dirname, join } from "node:path";
import { IN_IGNORED, IN_Q_OVERFLOW } from "../ffi/inotify.ts";
import { coalesce, type FileChange } from "./file-events.ts";
import { atOrBelow } from "./paths.ts";
import type { InotifyHub } from "./watch-hub.ts";
import { WatchIndex } from "./watch-index.ts";
import { aliasesOf, withAliases } from "./watch-links.ts";
import { rescan } from "./watch-rescan.ts";
import { scopeByName } from "./watch-scope.ts";
import { type WatchStatus, watchStatus } from "./watch-status.ts";

/** What a subscriber tells the watcher beside its interest. */
export interface SubscriberHints {
  /** directories of its open documents: watched first past the bound */
  focus?: () => Iterable<string>;
  /** a file name its server serves: directories holding such files are watched next */
  isSource?: (name: string) => boolean;
}

interface Subscriber extends Required<SubscriberHints> {
  interest: (dir: string) => boolean;
  deliver: (changes: FileChange[]) => void;
}

export interface Subscription {
  /** the subscriber's interest changed (new registrations): watch what it now asks about */
  refresh(): void;
  /** a document was opened: past the bound, its directory is watched first */
  focusChanged(): void;
  /** directories it asks about that are not watched (past the bound, paths too long) */
  unwatched(): number;
  close(): void;
}

/** Open documents' directories remembered as tried (past the bound) at most. */
const MAX_FOCUSED = 4096;

export class WorkspaceWatcher {
  private index: WatchIndex | null = null;
  private failure: string | null = null;
  private readonly subscribers = new Set<Subscriber>();
  private overflows = 0;
  /** open documents' directories a rebalance was asked to watch */
  private readonly focused = new Set<string>();

  constructor(
    readonly root: string,
    readonly maxWatches: number,
    private readonly hub: InotifyHub,
  ) {}

  subscribe(
    interest: (dir: string) => boolean,
    deliver: (changes: FileChange[]) => void,
    hints: SubscriberHints = {},
  ): Subscription {
    const sub: Subscriber = {
      interest,
      deliver,
      focus: hints.focus ?? (() => []),
      isSource: hints.isSource ?? (() => false),
    };
    // what changed before it subscribed is the others' (and watches may move below)
    this.poll();
    this.subscribers.add(sub);
    this.refresh();
    return {
      refresh: () => this.refresh(),
      focusChanged: () => this.promote(),
      // no watch at all (the kernel's instances used up): the root, whole, is unwatched
      unwatched: () => this.index?.unwatchedFor(interest) ?? (this.failure === null ? 0 : 1),
      close: () => {
        this.subscribers.delete(sub);
        if (this.subscribers.size === 0) this.close();
        else this.refresh();
      },
    };
  }

  /** A directory some subscriber asks about, under its own path or a link's. */
  private interested(dir: string): boolean {
    for (const s of this.subscribers) if (s.interest(dir)) return true;
    const links = this.index?.links;
    if (links === undefined || links.size === 0) return false;
    for (const alias of aliasesOf(dir, links)) {
      for (const s of this.subscribers) if (s.interest(alias)) return true;
    }
    return false;
  }

  /** The index, its watches had from the hub; after a failure, tried again (a later refresh). */
  private open(): WatchIndex | null {
    if (this.index !== null) return this.index;
    const watches = this.hub.watches();
    if ("error" in watches) {
      this.failure = watches.error;
      return null;
    }
    this.failure = null;
    this.index = new WatchIndex(watches, this.root, this.maxWatches, {
      interested: (d) => this.interested(d),
      isSource: (name) => [...this.subscribers].some((s) => s.isSource(name)),
    });
    return this.index;
  }

  /**
   * Make the watched set what the subscribers ask about: new directories are watched and
   * indexed (no events: this is the baseline), ones nobody asks about any more dropped.
   */
  private refresh(): void {
    const index = this.open();
    if (index === null) return;
    // events queued for a watch dropped below would be lost: delivered first
    this.poll();
    for (const dir of [...index.dirs.keys()]) {
      if (index.dirs.has(dir) && !this.interested(dir)) index.removeTree(dir, null, true);
    }
    index.unwatched.clear();
    index.kernelLimit = false;
    index.boundHit = false;
    index.truncated = false;
    this.focused.clear();
    index.addTree(this.root, null, false);
    if (index.boundHit) index.rebalance(this.focus());
  }

  private focus(): Set<string> {
    const dirs = new Set<string>();
    for (const s of this.subscribers) for (const d of s.focus()) dirs.add(d);
    return dirs;
  }

  /** Past the bound: open documents in unwatched directories get theirs watched (once). */
  private promote(): void {
    const index = this.index;
    if (index === null || !index.boundHit || index.unwatched.size === 0) return;
    const focus = this.focus();
    let wanted = false;
    for (const dir of focus) {
      if (index.dirs.has(dir) || this.focused.has(dir) || !atOrBelow(this.root, dir)) continue;
      if (this.focused.size >= MAX_FOCUSED) this.focused.clear();
      this.focused.add(dir);
      wanted = true;
    }
    if (!wanted) return;
    this.poll(); // what the watches about to move saw is delivered first
    index.rebalance(focus);
  }

  /**
   * Drain the kernel queue and hand every subscriber the coalesced changes in the
   * directories it asks about, each under every path it has. Never blocks. `read`: false
   * when the caller has just read the queue (InotifyHub.read) for many watchers.
   */
  poll(read = true, heard: readonly string[] = []): void {
    const index = this.index;
    if (index === null) return;
    const events = read ? index.watches.drain() : index.watches.take();
    if (events.length === 0 && heard.length === 0) return;
    // files changed as their own watches heard it (file-vouches.ts), maybe through a link
    // no watched directory names: changes like any other, told once with what was seen
    const changes: FileChange[] = heard.map((abs) => ({ abs, kind: "changed" }));
    if (events.some((e) => (e.mask & IN_Q_OVERFLOW) !== 0)) {
      // the queue lost events: compare every watched directory with the disk instead; the
      // watches it still reports ended are ended first (their directories are gone)
      this.overflows += 1;
      for (const e of events) if ((e.mask & IN_IGNORED) !== 0) index.apply(e, changes);
      rescan(index, changes);
    } else {
      for (const e of events) index.apply(e, changes);
    }
    const out = coalesce(withAliases(coalesce(changes), index.links));
    if (out.length === 0) return;
    for (const s of this.subscribers) {
      // a directory is watched while any subscriber asks about it: each hears only its own
      const mine = out.filter((c) => s.interest(dirname(c.abs)));
      if (mine.length > 0) s.deliver(mine);
    }
  }

  /** The files indexed now (absolute paths): what a directory held before it moved. */
  indexedFiles(): string[] {
    const out: string[] = [];
    for (const [dir, e] of this.index?.dirs ?? [])
      for (const name of e.files) out.push(join(dir, name));
    return out;
  }

  /** Why nothing is watched (no inotify instance at the last try), or null. */
  failed(): string | null {
    return this.failure;
  }

  status(): WatchStatus {
    const index = this.index;
    let files = 0;
    let containers = 0;
    let packages = 0;
    for (const [dir, e] of index?.dirs ?? []) {
      files += e.files.size;
      if (!e.container) continue;
      containers += 1;
      for (const d of e.dirs) if (scopeByName(`${dir}/${d}`) === "package") packages += 1;
    }
    return watchStatus({
      root: this.root,
      watching: index !== null,
      failure: this.failure,
      kernelLimit: index?.kernelLimit ?? false,
      boundHit: index?.boundHit ?? false,
      maxWatches: this.maxWatches,
      watchedDirectories: index?.dirs.size ?? 0,
      filesIndexed: files,
      unwatched: index?.unwatched ?? new Map(),
      exact: !(index?.truncated ?? false),
      containers,
      packages,
      links: index?.links.size ?? 0,
      linksNotFollowed: index?.linksNotFollowed ?? 0,
      overflows: this.overflows,
    });
  }

  close(): void {
    this.index?.watches.close();
    this.index?.clear();
    this.index = null;
    this.focused.clear();
  }
}
