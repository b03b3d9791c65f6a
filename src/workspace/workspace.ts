/**
 * One configured workspace and what the bridge keeps about its files (SPEC §5, §8.1): the
 * root's realpath, taken once; which file a path means, and its confined read; the watcher
 * its sessions share (its watches in the bridge's one inotify instance, watch-hub.ts); the
 * line tables of the files results point into, and what the URIs naming them name
 * (uri-names.ts). The session manager makes one per configured workspace, passes it to the
 * sessions and tools that need it, and closes it.
 */
import { join } from "node:path";
import type { WorkspaceConfig } from "../config/types.ts";
import type { LineModel } from "../text/line-model.ts";
import { CALL_BUDGET_BYTES, CallLines, type OpenFiles } from "./call-lines.ts";
import {
  type FileIdentity,
  readWorkspaceText,
  statWorkspaceFile,
  type WorkspaceText,
} from "./confined.ts";
import type { FileChange } from "./file-events.ts";
import { FileVouches } from "./file-vouches.ts";
import { type ResolvedFile, realRoot, resolveMaybeNewFile, resolveWorkspaceFile } from "./files.ts";
import { LineTables } from "./line-tables.ts";
import { OutsideWatch } from "./outside-watch.ts";
import { displayPath, type WorkspaceRoot } from "./paths.ts";
import { Turns } from "./turns.ts";
import { UriNames } from "./uri-names.ts";
import { type SubscriberHints, type Subscription, WorkspaceWatcher } from "./watch.ts";
import type { InotifyHub } from "./watch-hub.ts";
import type { WatchStatus } from "./watch-status.ts";

export interface WorkspaceLimits {
  /** the largest file read (bridge.max_file_bytes) */
  maxFileBytes: number;
  /** directories watched at most (bridge.max_watches) */
  maxWatches: number;
  /** extensions (no dot) of the files its servers read as sources (outside-survey.ts) */
  sourceExtensions?: ReadonlySet<string>;
  /** … of its servers other than data-file servers: what those never read (SPEC §5.3) */
  programExtensions?: ReadonlySet<string>;
}

export class Workspace implements WorkspaceRoot {
  readonly name: string;
  /** the root as configured (absolute, normalized) */
  readonly root: string;
  /** its realpath: what every file is confined beneath */
  readonly rootReal: string;
  private readonly lineTables: LineTables;
  /** watches that let line tables stand without a look at the disk (file-vouches.ts) */
  private readonly vouches: FileVouches;
  /** what server URIs name, and how results name it (kept across calls: uri-names.ts) */
  readonly uriNames: UriNames;
  /** turns of the event loop for the work on large files, one call at a time (turns.ts) */
  readonly turns = new Turns();
  /** extensions (no dot) of its servers' sources, data-file servers' aside */
  readonly programExtensions: ReadonlySet<string>;
  private watcher: WorkspaceWatcher | undefined;
  private outsideWatch: OutsideWatch | undefined;

  constructor(
    readonly config: WorkspaceConfig,
    private readonly limits: WorkspaceLimits,
    /** the bridge's one inotify instance: the root's watches and its dependencies' */
    private readonly hub: InotifyHub,
    /** told the size of every file read (the bridge's memory collector) */
    private readonly onRead: (bytes: number) => void = () => {},
  ) {
    this.name = config.name;
    this.root = config.root;
    this.programExtensions = limits.programExtensions ?? new Set();
    this.rootReal = realRoot(config.root);
    this.uriNames = new UriNames(this);
    this.vouches = new FileVouches(this.rootReal, hub);
    this.lineTables = new LineTables({
      identify: (abs) => this.tryIdentify(abs),
      read: (abs) => this.tryRead(abs),
      vouches: this.vouches,
    });
  }

  /** A tool's `file` argument resolved (SPEC §4.2, §8.1 step 1). */
  resolve(file: string): ResolvedFile {
    return resolveWorkspaceFile(this.rootReal, file, this.name);
  }

  /** `resolve`, for a path that may name a file not written yet (SPEC §6.2). */
  resolveMaybeNew(file: string): ResolvedFile & { exists: boolean } {
    return resolveMaybeNewFile(this.rootReal, file, this.name);
  }

  /** A file's text read beneath the root (SPEC §8.1); typed errors when it cannot be. */
  read(file: string, resolved?: ResolvedFile): WorkspaceText {
    const text = readWorkspaceText(this.rootReal, file, this.limits.maxFileBytes, resolved);
    this.onRead(text.bytes);
    return text;
  }

  /** `read`, or undefined for a file that cannot be read (a server-named path, say). */
  tryRead(file: string): WorkspaceText | undefined {
    try {
      return this.read(file);
    } catch {
      return undefined;
    }
  }

  /** The identity of the file `file` names beneath the root, not read; undefined when none. */
  tryIdentify(file: string): FileIdentity | undefined {
    try {
      return statWorkspaceFile(this.rootReal, file).identity;
    } catch {
      return undefined;
    }
  }

  /**
   * The line tables of one call's answer, the server's lines counted in `model`: files as on
   * disk now (kept across calls: line-tables.ts), or the session's open document, within the
   * call's byte budget (call-lines.ts); `own`: the path of the call's own document.
   */
  callLines(model: LineModel, open: OpenFiles, own?: string): CallLines {
    const budget = Math.max(CALL_BUDGET_BYTES, this.limits.maxFileBytes);
    return new CallLines(this.lineTables, model, budget, open, own, () => this.vouches.sync());
  }

  /** How results name `abs`: workspace-relative inside the root, else absolute. */
  display(abs: string): string {
    return displayPath(this, abs);
  }

  /**
   * Changes below the root in the directories `interest` accepts, delivered at each
   * `poll()` (watch.ts). The watcher starts with its first subscriber.
   */
  watch(
    interest: (dir: string) => boolean,
    deliver: (changes: FileChange[]) => void,
    hints: SubscriberHints = {},
  ): Subscription {
    this.watcher ??= new WorkspaceWatcher(this.rootReal, this.limits.maxWatches, this.hub);
    return this.watcher.subscribe(interest, deliver, hints);
  }

  /**
   * The dependencies outside the root, watched (SPEC §5.3): found again each time a session
   * subscribes (a server life starts), new ones watched from then on.
   */
  outside(): OutsideWatch {
    this.outsideWatch ??= new OutsideWatch(
      this.hub,
      this.rootReal,
      (rel) => this.tryRead(join(this.rootReal, rel))?.text,
      () => {
        const dir = this.config.file_dirs["compile_commands.json"];
        return dir === undefined ? [] : [dir];
      },
      this.limits.sourceExtensions,
    );
    this.outsideWatch.refresh();
    return this.outsideWatch;
  }

  /** Changes below the root a session took: a way out they add is watched from now on. */
  noteChanges(changes: readonly FileChange[]): void {
    this.outsideWatch?.noteChanges(changes);
  }

  /** Drain the watcher: every subscriber gets what changed since the last poll. */
  poll(): void {
    this.watcher?.poll(true, this.vouches.takeHeard());
    this.outsideWatch?.poll();
  }

  watchStatus(): WatchStatus | null {
    return this.watcher?.status() ?? null;
  }

  /** Stop watching (the bridge is exiting, or discovery replaced the configuration). */
  close(): void {
    this.vouches.close();
    this.outsideWatch?.close();
    this.outsideWatch = undefined;
    this.watcher?.close();
    this.watcher = undefined;
  }
}
