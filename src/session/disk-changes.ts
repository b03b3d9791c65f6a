/**
 * What changed on disk that one session's server cares about (SPEC §5.2): its subscription
 * to the workspace watcher, narrowed to the directories its registered file watchers can
 * match in (every directory outside hidden ones for a server that registered none), the
 * changes gathered since the last `take()` coalesced per file, and which of them are
 * events it asked for. Writes to the bridge's own log file are no change. A change to a
 * file matching `restart_on` is remembered as the reason the session must restart, one
 * matching `reload_on` as the reason the server must reload its configuration. Changed
 * files of the server's languages are recorded for the apply tools (changed-files.ts).
 */

import { existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { languageOfFile } from "../config/server-files.ts";
import {
  type CompiledWatcher,
  coalesce,
  compileWatchers,
  directoryOfInterest,
  type FileChange,
  firstMatch,
  matchingEvents,
} from "../workspace/file-events.ts";
import { realRoot } from "../workspace/files.ts";
import { atOrBelow, hiddenBelow } from "../workspace/paths.ts";
import type { Subscription } from "../workspace/watch.ts";
import type { WatchStatus } from "../workspace/watch-status.ts";
import { ChangedFiles, MAX_CHANGED_FILES } from "./changed-files.ts";
import type { SessionContext } from "./context.ts";

/** Directories remembered for `package_manifest` at most; beyond, forgotten at once. */
const MAX_PACKAGE_DIRS = 4096;

export class DiskChanges {
  private pending: FileChange[] = [];
  private watchers: CompiledWatcher[] = [];
  private subscription: Subscription | null = null;
  private closed = false;
  private restartReason: string | undefined;
  private reloadReason: string | undefined;
  private readonly root: string;
  /** the bridge's own log file, when it lies in the workspace: its writes are no change */
  private readonly logFile: string | null;
  private readonly restartGlobs: Bun.Glob[];
  private readonly reloadGlobs: Bun.Glob[];
  /** directories a file of the server's languages was created in (package_manifest) */
  private readonly packageDirs = new Set<string>();
  /** files of the server's languages changed in this life (SPEC §7.3) */
  readonly changed = new ChangedFiles();

  constructor(
    private readonly ctx: SessionContext,
    /** directories of the open documents: past the watch bound, watched first */
    private readonly focus: () => Iterable<string> = () => [],
  ) {
    this.root = ctx.workspace.rootReal;
    const file = ctx.bridge.log.file;
    this.logFile = file === null ? null : join(realRoot(dirname(file)), basename(file));
    this.restartGlobs = ctx.server.restart_on.map((g) => new Bun.Glob(g));
    this.reloadGlobs = ctx.server.reload_on.map((g) => new Bun.Glob(g));
  }

  /** Whether the server registered file watchers (it is told of changes through them). */
  watching(): boolean {
    return this.watchers.length > 0;
  }

  /** The server's file-watcher registrations changed (client/registerCapability). */
  registrationsChanged(): void {
    this.watchers = compileWatchers(this.ctx.registrations.values());
    if (this.subscription) this.subscription.refresh();
    else this.start();
  }

  /** Watch from now on (the first document, the first sync). */
  start(): void {
    if (this.closed || this.subscription) return;
    const { server } = this.ctx;
    this.subscription = this.ctx.workspace.watch(
      this.interest,
      (changes) => {
        // coalesced as it grows: an idle session holds one change per file, not a history
        this.pending = coalesce([...this.pending, ...changes]);
      },
      { focus: this.focus, isSource: (name) => languageOfFile(server, name) !== undefined },
    );
  }

  /** A document was opened: past the watch bound its directory is watched first. */
  opened(): void {
    this.subscription?.focusChanged();
  }

  /**
   * Directories the server asks about that are not watched (the bound, paths too long):
   * an answer may depend on what changed there unseen (SPEC §5.2, the `unwatched` field).
   */
  unwatched(): number {
    return this.subscription?.unwatched() ?? 0;
  }

  /**
   * Servers that registered watchers hear what they asked for; for the others a change
   * anywhere outside hidden directories still counts (clangd re-reads its headers when
   * the call's document is sent again).
   */
  private interest = (dir: string): boolean =>
    this.watchers.length > 0
      ? directoryOfInterest(this.watchers, dir)
      : !hiddenBelow(this.root, dir);

  /** Drain the watcher: the changes since the last take, and the events the server asked for. */
  take(): { changes: FileChange[]; events: FileChange[] } {
    this.start();
    this.ctx.workspace.poll();
    const changes = this.pending.splice(0).filter((c) => !this.ownLog(c.abs));
    this.restartReason ??= firstMatch(this.restartGlobs, changes, this.root);
    this.reloadReason ??= firstMatch(this.reloadGlobs, changes, this.root);
    this.changed.note(changes.filter((c) => languageOfFile(this.ctx.server, c.abs) !== undefined));
    const events = matchingEvents(this.watchers, changes, this.root);
    const manifest = this.manifestFor(events);
    if (manifest !== undefined)
      events.push(...matchingEvents(this.watchers, [manifest], this.root));
    return { changes, events };
  }

  /**
   * `package_manifest`: a file of the server's languages created in a directory it has not
   * seen one created in may start a package it does not know (gopls loads a new package
   * directory only when its module reloads): the nearest enclosing manifest is reported
   * changed too, once per directory.
   */
  private manifestFor(events: FileChange[]): FileChange | undefined {
    const name = this.ctx.server.package_manifest;
    if (name === null) return undefined;
    let found: FileChange | undefined;
    for (const e of events) {
      const dir = dirname(e.abs);
      if (e.kind !== "created" || languageOfFile(this.ctx.server, e.abs) === undefined) continue;
      if (this.packageDirs.has(dir)) continue;
      if (this.packageDirs.size >= MAX_PACKAGE_DIRS) this.packageDirs.clear();
      this.packageDirs.add(dir);
      for (let d = dir; found === undefined && atOrBelow(this.root, d); d = dirname(d)) {
        if (existsSync(join(d, name))) found = { abs: join(d, name), kind: "changed" };
        if (d === this.root) break;
      }
    }
    return found !== undefined && !events.some((e) => e.abs === found.abs) ? found : undefined;
  }

  /** Why the session must restart before it answers (`restart_on`), once; else undefined. */
  takeRestartReason(): string | undefined {
    const why = this.restartReason;
    this.restartReason = undefined;
    return why;
  }

  /** Why the server must reload its configuration before it answers (`reload_on`), once. */
  takeReloadReason(): string | undefined {
    const why = this.reloadReason;
    this.reloadReason = undefined;
    return why;
  }

  private ownLog(abs: string): boolean {
    return this.logFile !== null && (abs === this.logFile || abs.startsWith(`${this.logFile}.`));
  }

  /** The registered watchers, and those whose base lies outside the root (never watched). */
  patterns(): { watchers: string[]; outside: string[] } {
    const outside = this.watchers.filter(
      (w) => w.scope !== null && !atOrBelow(this.root, w.scope) && !atOrBelow(w.scope, this.root),
    );
    return {
      watchers: this.watchers.map((w) => w.pattern),
      outside: outside.map((w) => w.pattern),
    };
  }

  watchStatus(): WatchStatus | null {
    return this.subscription ? this.ctx.workspace.watchStatus() : null;
  }

  /**
   * Why the record of changed files may miss some (SPEC §7.3), or null when it holds every
   * change the watcher saw in this life and the watcher sees the whole workspace.
   */
  untracked(): string | null {
    if (!this.changed.whole) return `more than ${MAX_CHANGED_FILES} files changed in this session`;
    const w = this.watchStatus();
    if (w === null) return "the workspace is not watched yet";
    if (w.state !== "watching") return `the workspace is not watched: ${w.reason ?? "unavailable"}`;
    if (w.unwatched_directories > 0) {
      return `${w.unwatched_directories} directories are not watched (${w.reason ?? "bound"})`;
    }
    return null;
  }

  /** A new server life: no watchers registered, nothing pending, watching again on start. */
  reset(): void {
    this.changed.reset();
    this.close();
    this.closed = false;
    this.watchers = [];
  }

  /** Stop watching, forget what was pending. */
  close(): void {
    this.closed = true;
    this.subscription?.close();
    this.subscription = null;
    this.pending = [];
    this.restartReason = undefined;
    this.reloadReason = undefined;
  }
}
