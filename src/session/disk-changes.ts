/**
 * What changed on disk that one session's server cares about (SPEC §5.2, §5.3): the changes
 * its watcher subscription gathered since the last `take()`, which of them are events it
 * asked for, and why it must restart or reload (`restart_on`, `reload_on`, a change nothing
 * vouches for: change-rule.ts). The bridge's own files, `own_files` and files it never
 * `reads` are no change.
 */
import { existsSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { findPreset } from "../config/presets.ts";
import { languageOfFile } from "../config/server-files.ts";
import { sanitizedEnv } from "../process/env.ts";
import {
  type CompiledWatcher,
  coalesce,
  compileWatchers,
  directoryOfInterest,
  type FileChange,
  firstMatch,
  globPath,
  globs,
  matchingEvents,
  watcherReach,
} from "../workspace/file-events.ts";
import { realRoot } from "../workspace/files.ts";
import type { OutsideSubscription } from "../workspace/outside-watch.ts";
import { atOrBelow, relativeInside } from "../workspace/paths.ts";
import { userConfiguration } from "../workspace/user-config.ts";
import type { Subscription } from "../workspace/watch.ts";
import type { WatchStatus } from "../workspace/watch-status.ts";
import { isApplySideFile, verdictOf } from "./change-rule.ts";
import { ChangedFiles, MAX_CHANGED_FILES } from "./changed-files.ts";
import type { SessionContext } from "./context.ts";

/** Directories remembered for `package_manifest` at most; beyond, forgotten at once. */
const MAX_PACKAGE_DIRS = 4096;
/** Unproven changes an answer names at most (the count goes on). */
const MAX_MARKS_NAMED = 8;
const MAX_MARKS_KEPT = 256;

/** What every answer of a session marked `unproven = "mark"` carries (SPEC §4.3). */
export interface Unsettled {
  /** workspace-relative paths of changes the server is not known to follow, sorted, at most 8 */
  files: string[];
  /** how many such changes since the server started */
  count: number;
}

/** Why a marked change leaves an answer unsettled (SPEC §5.3). */
export const UNPROVEN_REASON =
  "changed since the server started; the server is not known to follow it (session_restart)";

export class DiskChanges {
  private pending: FileChange[] = [];
  private watchers: CompiledWatcher[] = [];
  private subscription: Subscription | null = null;
  /** the dependencies outside the root its configuration names (SPEC §5.3) */
  private outside: OutsideSubscription | null = null;
  private closed = false;
  /** why the session must restart (`restart_on`, unproven) or reload (`reload_on`) */
  private readonly reasons: { restart?: string | undefined; reload?: string | undefined } = {};
  private readonly root: string;
  /** the bridge's own log file, when it lies in the workspace: its writes are no change */
  private readonly logFile: string | null;
  private readonly restartGlobs: Bun.Glob[];
  private readonly reloadGlobs: Bun.Glob[];
  private readonly followsGlobs: Bun.Glob[];
  private readonly ownGlobs: Bun.Glob[];
  /** null: the server may read every file */
  private readonly readsGlobs: Bun.Glob[] | null;
  /**
   * A data-file server's documents name data files (a schema, a `$ref`), never the other
   * servers' sources: extensions (no dot) it does not read whatever its `reads`.
   */
  private readonly othersSources: ReadonlySet<string>;
  /** unproven changes since the server started (`unproven = "mark"`) */
  private readonly marks = new Set<string>();
  private markCount = 0;
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
    const { server } = ctx;
    this.restartGlobs = globs(server.restart_on);
    this.reloadGlobs = globs(server.reload_on);
    this.followsGlobs = globs(server.follows);
    this.ownGlobs = globs(server.own_files);
    this.readsGlobs = server.reads.includes("**") ? null : globs(server.reads);
    const programs = [...ctx.workspace.programExtensions];
    this.othersSources = new Set(
      server.data_files ? programs.filter((e) => !(e in server.extensions)) : [],
    );
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
    this.dependOutside();
  }

  /**
   * What the server reads outside the root that no workspace file names (SPEC §5.3): what
   * its registered watchers cover there, and its programs' per-user configuration.
   */
  private dependOutside(): void {
    if (this.outside === null) return;
    const { server } = this.ctx;
    const registered = this.outsideWatchers().flatMap((w) => {
      const reach = watcherReach(w);
      const source = "a watcher the server registered";
      return reach === null ? [] : [{ ...reach, source, ownRead: true as const }];
    });
    const programs = [
      server.name,
      ...(typeof server.command === "string" ? [basename(server.command)] : []),
      ...(findPreset(server.name)?.runs ?? []),
    ];
    // the environment the server is started with (a partial configuration has none of its own)
    const env = sanitizedEnv(
      { env: server.env ?? {}, env_passthrough: server.env_passthrough ?? [] },
      process.env,
    );
    this.outside.depend([...registered, ...userConfiguration(programs, env)]);
  }

  /** Watch from now on (the first document, the first sync). */
  start(): void {
    if (this.closed || this.subscription) return;
    const { server } = this.ctx;
    // coalesced as it grows: an idle session holds one change per file, not a history
    const gather = (changes: FileChange[]) => {
      this.pending = coalesce([...this.pending, ...changes]);
    };
    this.subscription = this.ctx.workspace.watch(this.interest, gather, {
      focus: this.focus,
      isSource: (name) => languageOfFile(server, name) !== undefined,
    });
    this.outside = this.ctx.workspace.outside().subscribe(gather);
    this.dependOutside();
  }

  /** Dependencies outside the root that are named but not watched whole (SPEC §5.3). */
  outsideUnwatched(): string[] {
    return this.outside?.unwatched() ?? [];
  }

  /** A document was opened: past the watch bound its directory is watched first. */
  opened(): void {
    this.subscription?.focusChanged();
  }

  /** Directories the server asks about that are not watched (SPEC §5.2 `unwatched`). */
  unwatched(): number {
    return this.subscription?.unwatched() ?? 0;
  }

  /**
   * Every directory the watcher covers (an unvouched change must be seen to be judged, SPEC
   * §5.3); with `reads`, only where those files could lie and its watchers ask about.
   */
  private interest = (dir: string): boolean =>
    this.readsGlobs === null ||
    this.readsDirectory(dir) ||
    (this.watchers.length > 0 && directoryOfInterest(this.watchers, dir));

  /** Could a file `reads` names lie in or below `dir`? (Its literal prefix decides.) */
  private readsDirectory(dir: string): boolean {
    const rel = relativeInside(this.root, dir);
    if (rel === null || rel === ".") return true;
    return this.ctx.server.reads.some((g) => {
      const prefix = g.split(/[*?[{]/, 1)[0] ?? "";
      const literal = prefix.slice(0, prefix.lastIndexOf("/") + 1);
      return literal === "" || `${rel}/`.startsWith(literal) || literal.startsWith(`${rel}/`);
    });
  }

  /** Drain the watcher: the changes since the last take, and the events the server asked for. */
  take(): { changes: FileChange[]; events: FileChange[] } {
    this.start();
    this.ctx.workspace.poll();
    const first = this.pending.splice(0).filter((c) => !this.noChange(c.abs));
    this.ctx.workspace.noteChanges(first);
    // what the outside watch found through these (a link re-pointed) is this delivery's too
    const then = this.pending.splice(0).filter((c) => !this.noChange(c.abs));
    if (then.length > 0) this.ctx.workspace.noteChanges(then);
    const changes = [...first, ...then];
    this.reasons.restart ??= firstMatch(this.restartGlobs, changes, this.root);
    this.reasons.reload ??= firstMatch(this.reloadGlobs, changes, this.root);
    this.changed.note(changes.filter((c) => languageOfFile(this.ctx.server, c.abs) !== undefined));
    this.ctx.program.noteChanges(changes);
    const events = matchingEvents(this.watchers, changes, this.root);
    const manifest = this.manifestFor(events);
    if (manifest !== undefined)
      events.push(...matchingEvents(this.watchers, [manifest], this.root));
    return { changes, events };
  }

  /**
   * `package_manifest`: a file created in a directory not seen before may start a package,
   * so the nearest enclosing manifest is reported changed too, once per directory.
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

  /** Why the session must restart, or its server reload, before it answers; once. */
  takeReason(kind: "restart" | "reload"): string | undefined {
    const why = this.reasons[kind];
    this.reasons[kind] = undefined;
    return why;
  }

  /** The bridge's log file and the applier's side files, and the server's own files. */
  private noChange(abs: string): boolean {
    if (this.logFile !== null && (abs === this.logFile || abs.startsWith(`${this.logFile}.`))) {
      return true;
    }
    if (isApplySideFile(basename(abs))) return true;
    const name = relativeInside(this.root, abs) ?? basename(abs);
    return this.ownGlobs.some((g) => g.match(name));
  }

  /** A file the server never reads (`reads`): never judged (its events still go). */
  private unread(abs: string): boolean {
    if (this.othersSources.has(extname(abs).slice(1))) return true;
    return (
      this.readsGlobs !== null && !this.readsGlobs.some((g) => g.match(globPath(this.root, abs)))
    );
  }

  /**
   * Judge what a delivery left unvouched for (change-rule.ts): `open` the open documents'
   * paths, `opened` files opened for it now, `events` what its watchers were sent.
   */
  judge(
    changes: readonly FileChange[],
    events: readonly FileChange[],
    open: ReadonlySet<string>,
    opened: ReadonlySet<string>,
  ): void {
    const sent = new Set(events.map((e) => e.abs));
    for (const c of changes) {
      if (this.unread(c.abs)) continue;
      const rel = relativeInside(this.root, c.abs);
      const name = globPath(this.root, c.abs);
      const matches = (list: Bun.Glob[]) => list.some((g) => g.match(name));
      const verdict = verdictOf({
        own: false, // taken out by take()
        restartOn: matches(this.restartGlobs),
        reloadOn: matches(this.reloadGlobs),
        watched: sent.has(c.abs),
        // a data-file server checks other files against a document (a JSON schema) as it
        // read them, not again when the document changes: no proof for those (SPEC §5.3)
        open: open.has(c.abs) && !this.ctx.server.data_files,
        opened: opened.has(c.abs),
        // what `follows` names is shown followed inside the root; outside it, no proof
        follows: rel !== null && this.followsGlobs.some((g) => g.match(rel)),
      });
      if (verdict !== "unproven") continue;
      if (this.ctx.server.unproven === "restart") {
        this.reasons.restart ??= `${rel ?? c.abs} ${c.kind}, which the server is not known to follow`;
      } else {
        this.markCount += 1;
        if (this.marks.size < MAX_MARKS_KEPT) this.marks.add(rel ?? c.abs);
      }
    }
  }

  /** The marks every answer carries (`unproven = "mark"`), or null when there are none. */
  unsettled(): Unsettled | null {
    if (this.markCount === 0) return null;
    const files = [...this.marks].sort().slice(0, MAX_MARKS_NAMED);
    return { files, count: this.markCount };
  }

  /** The registered watchers whose base lies outside the root (not a directory holding it). */
  private outsideWatchers(): CompiledWatcher[] {
    return this.watchers.filter(
      (w) => w.scope !== null && !atOrBelow(this.root, w.scope) && !atOrBelow(w.scope, this.root),
    );
  }

  /** The registered watchers, and those whose base lies outside the root. */
  patterns(): { watchers: string[]; outside: string[] } {
    return {
      watchers: this.watchers.map((w) => w.pattern),
      outside: this.outsideWatchers().map((w) => w.pattern),
    };
  }

  watchStatus(): WatchStatus | null {
    return this.subscription ? this.ctx.workspace.watchStatus() : null;
  }

  /** Why the record of changed files may miss some (SPEC §7.3); null: it is whole. */
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
    this.marks.clear();
    this.markCount = 0;
    this.close();
    this.closed = false;
    this.watchers = [];
  }

  /** Stop watching, forget what was pending. */
  close(): void {
    this.closed = true;
    this.subscription?.close();
    this.subscription = null;
    this.outside?.close();
    this.outside = null;
    this.pending = [];
    this.reasons.restart = undefined;
    this.reasons.reload = undefined;
  }
}
