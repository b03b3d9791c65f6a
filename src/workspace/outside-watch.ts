/**
 * Watching the dependencies outside the root (SPEC §5.3): those the workspace's
 * configuration names (outside-deps.ts) and every other way out a walk of the root finds
 * (outside-survey.ts: links, any path in a configuration file, a source's relative path
 * that climbs out). A directory with everything below it, a directory's own entries, or a
 * file through a watch on its directory alone, each with a watcher of its own (watch.ts)
 * and at most OUTSIDE_MAX_WATCHES directories, in the bridge's one inotify instance
 * (watch-hub.ts), with what each path is looked up through (outside-lookups.ts). Found
 * again at a session's start and when a change below the root touches a file they came
 * from, then watched for every subscriber. One that cannot be watched whole — gone,
 * unreadable, past its bound, no inotify — or a survey stopped at its bound is named in
 * every answer that may depend on it (`outside_unwatched`).
 */
import { existsSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { readTextOutsideWorkspace } from "./confined.ts";
import type { FileChange } from "./file-events.ts";
import { OutsideBeyond } from "./outside-beyond.ts";
import {
  byPath,
  isSystemPath,
  MAX_OUTSIDE_DEPENDENCIES,
  type OutsideDependency,
  outsideDependencies,
  ownersOf,
  reachOf,
} from "./outside-deps.ts";
import { LookupWatches } from "./outside-lookups.ts";
import {
  awaitedStep,
  type Followed,
  filesBelow,
  leadsTo,
  movedOn,
  type Place,
  placeOf,
  reached,
  repointed,
  stepOf,
  whereItWouldAppear,
} from "./outside-places.ts";
import { MAX_SURVEYED_FILE, OutsideSurvey } from "./outside-survey.ts";
import { atOrBelow } from "./paths.ts";
import { type Subscription, WorkspaceWatcher } from "./watch.ts";
import type { InotifyHub } from "./watch-hub.ts";
import { directoryScope } from "./watch-scope.ts";

/** How an answer names a survey of the root stopped at its bound. */
export const SURVEY_INCOMPLETE = "the survey of paths out of the root stopped at its bound";

/** How an answer names an outside dependency too large to read whole for what it names. */
export const BEYOND_INCOMPLETE = "not read whole for the paths it names";

/** The largest configuration file above the root read for the paths it names. */
const MAX_CONFIGURATION_ABOVE = 1024 * 1024;

/** Directories one outside dependency may have watched. */
export const OUTSIDE_MAX_WATCHES = 1024;

/** `dir` (the place's directory) is the watcher's root: the directory, or the file's. */
interface Watched extends Place, Followed {
  dep: OutsideDependency;
  /** the file, for a file dependency */
  file: string | null;
  watcher: WorkspaceWatcher;
  /** paths to nothing yet that would appear below `dir` (`OutsideDependency.awaits`) */
  awaiting: Set<string>;
  /** what its path is looked up through could not all be watched */
  lookupsUnwatched: boolean;
}

/** One session's view: what changed outside, and what it cannot see. */
export interface OutsideSubscription {
  /** dependencies named but not watched whole (absolute paths, sorted) */
  unwatched(): string[];
  /**
   * What this subscriber's server reads beyond what the workspace names: the directories
   * its registered watchers cover outside the root, its programs' user configuration
   * (replaces the last call's). Watched for every subscriber, like the rest.
   */
  depend(deps: readonly OutsideDependency[]): void;
  close(): void;
}

/** One subscriber: where its changes go, and its subscription to each watched dependency. */
interface Subscriber {
  deliver: (changes: FileChange[]) => void;
  subs: { w: Watched; sub: Subscription }[];
  /** what its server reads outside the root that the workspace does not name */
  own: readonly OutsideDependency[];
}

export class OutsideWatch {
  private watched = new Map<string, Watched>();
  private failed = new Map<string, OutsideDependency>();
  private readonly subscribers = new Set<Subscriber>();
  /** a dependency only some subscribers' servers read (their own), by path: theirs alone */
  private owners = new Map<string, Set<Subscriber>>();
  private closed = false;
  /** a change outside may name or drop a dependency: found again once every owner is told */
  private stale = false;
  private readonly survey: OutsideSurvey;
  private readonly beyond: OutsideBeyond;
  /** where each watched path leads: a link pointed elsewhere, a directory on the way replaced */
  private readonly lookups: LookupWatches<Watched>;

  constructor(
    /** the bridge's inotify instance, every dependency's watches in it */
    private readonly hub: InotifyHub,
    private readonly rootReal: string,
    /** a root-relative file's text, or undefined (the workspace's confined read) */
    private readonly read: (rel: string) => string | undefined,
    private readonly databaseDirs: () => string[],
    /** extensions (no dot) of the files the workspace's servers read as sources */
    sourceExtensions: ReadonlySet<string> = new Set(),
  ) {
    this.survey = new OutsideSurvey({
      rootReal,
      sourceExtensions,
      read: (abs) => (atOrBelow(rootReal, abs) ? read(relative(rootReal, abs)) : undefined),
      readAbove: (abs) => readTextOutsideWorkspace(abs, MAX_CONFIGURATION_ABOVE),
      isSystem: isSystemPath,
    });
    this.lookups = new LookupWatches(hub, rootReal);
    this.beyond = new OutsideBeyond({
      rootReal,
      sourceExtensions,
      read: (abs) => readTextOutsideWorkspace(abs, MAX_SURVEYED_FILE),
      isSystem: isSystemPath,
    });
  }

  /**
   * Walk the root and find the dependencies again (a new server life reads its
   * configuration afresh).
   */
  refresh(): void {
    const walked = this.survey.walk();
    this.update();
    void walked.then(() => {
      if (!this.closed) this.update();
    });
  }

  /**
   * Changes below the root: a file or link they name may add or drop a way out. New
   * dependencies are watched for every subscriber from now on.
   */
  noteChanges(changes: readonly FileChange[]): void {
    if (changes.length === 0) return;
    this.survey.note(changes);
    this.update();
  }

  /**
   * New dependencies are watched from now on, and what they name in turn; one no longer
   * named keeps its watch (other sessions may be subscribed to it). Past
   * MAX_OUTSIDE_DEPENDENCIES watched, a new one is named, not watched.
   */
  private update(): void {
    const named = outsideDependencies(
      this.rootReal,
      this.read,
      this.databaseDirs(),
      existsSync,
      (abs) => this.unwatchedInside(abs),
      [
        ...this.survey.dependencies(),
        ...this.survey.ancestors(),
        ...[...this.subscribers].flatMap((s) => s.own),
      ],
    );
    const deps = byPath([...named, ...this.beyond.further(named, 4 * MAX_OUTSIDE_DEPENDENCIES)]);
    this.owners = ownersOf(
      [...this.survey.dependencies(), ...this.survey.ancestors()],
      this.subscribers,
    );
    const wanted = new Set<string>();
    for (const found of deps) {
      wanted.add(found.path);
      // named again with a wider reach (a tree where only entries were awaited): watched
      // anew; one whose path leads elsewhere now (a watch follows its directory) is a change
      const before = this.watched.get(found.path);
      if (before !== undefined && movedOn(before)) this.repoint(before);
      else if (before !== undefined && reachOf(before.dep) !== reachOf(found)) this.unwatch(before);
      if (this.awaitedBy(found)) continue;
      const room = this.watched.size < MAX_OUTSIDE_DEPENDENCIES;
      let w = room ? this.watch(found) : null;
      // a path to nothing yet is watched where it would appear (a `-I` made by a build)
      const where = w === null && room ? whereItWouldAppear(found, this.rootReal) : null;
      const dep = where ?? found;
      if (where !== null) {
        wanted.add(where.path);
        this.failed.delete(found.path);
        if (this.awaitedBy(where)) continue;
        w = this.watch(where);
      }
      if (w === null) this.failed.set(dep.path, dep);
      else {
        this.failed.delete(dep.path);
        this.watched.set(dep.path, w);
        w.lookupsUnwatched = !this.lookups.add(w, w.via);
        // what changes there may name further ways out, or be the path a dependency awaits
        this.attach(w, (changes) => this.changedOutside(w.dep, changes));
        for (const s of this.subscribers) s.subs.push(this.attach(w, this.toldTo(s, w)));
      }
    }
    this.forget(wanted);
  }

  /** What nothing names any more is no longer watched (a link out of the root removed). */
  private forget(wanted: ReadonlySet<string>): void {
    for (const path of [...this.failed.keys()]) if (!wanted.has(path)) this.failed.delete(path);
    // one named no more because a link it came through leads elsewhere is a change
    for (const w of [...this.watched.values()])
      if (!wanted.has(w.dep.path)) movedOn(w) ? this.repoint(w) : this.unwatch(w);
  }

  private unwatch(w: Watched): void {
    this.watched.delete(w.dep.path);
    this.lookups.remove(w);
    for (const s of this.subscribers) {
      for (const { sub } of s.subs.filter((x) => x.w === w)) sub.close();
      s.subs = s.subs.filter((x) => x.w !== w);
    }
    w.watcher.close();
  }

  /** Changes in `w`, for the subscriber whose server reads it (another's own are not). */
  private toldTo(s: Subscriber, w: Watched): (changes: FileChange[]) => void {
    const awaitedOnly = w.dep.kind === "entries" && w.dep.awaits !== undefined;
    return (changes) => {
      // a directory on the way to an awaited path is no change yet: the watch moves deeper
      const told = awaitedOnly ? changes.filter((c) => reached(w, c.abs)) : changes;
      if (told.length > 0 && this.concerns(s, w.dep.path)) s.deliver(told);
    };
  }

  /** Whether what is named at `path` is the subscriber's to be told of. */
  private concerns(s: Subscriber, path: string): boolean {
    const owners = this.owners.get(path);
    return owners === undefined || owners.has(s);
  }

  /** Whether `dep` is watched already (what it awaits noted there). */
  private awaitedBy(dep: OutsideDependency): boolean {
    const w = this.watched.get(dep.path);
    if (w !== undefined && dep.awaits !== undefined) w.awaiting.add(dep.awaits);
    return w !== undefined;
  }

  private changedOutside(dep: OutsideDependency, changes: FileChange[]): void {
    if (this.closed) return;
    this.beyond.note(changes);
    if (dep.awaits !== undefined) {
      this.survey.awaited(dep.path);
      this.beyond.awaited(dep.path);
    }
    this.stale = true;
  }

  /** Whether `abs`, below the root, lies where the root's watcher never looks (§5.2). */
  private unwatchedInside(abs: string): boolean {
    for (let d = abs; d.length > this.rootReal.length; d = dirname(d)) {
      const scope = directoryScope(d);
      if (scope === "excluded" || scope === "package") return true;
    }
    return false;
  }

  private watch(dep: OutsideDependency): Watched | null {
    const awaiting = new Set(dep.awaits === undefined ? [] : [dep.awaits]);
    try {
      const place = placeOf(dep.kind === "file" ? dirname(dep.path) : dep.path);
      const tree = dep.kind === "tree";
      // a directory holding the root would watch the root twice: named, not watched
      if (tree && atOrBelow(place.dir, this.rootReal)) return null;
      const file =
        dep.kind === "file" ? join(place.dir, relative(dirname(dep.path), dep.path)) : null;
      const watcher = new WorkspaceWatcher(place.dir, tree ? OUTSIDE_MAX_WATCHES : 1, this.hub);
      const via = dep.via ?? dep.path;
      const viaReal = leadsTo(via);
      return { dep, file, watcher, awaiting, lookupsUnwatched: false, via, viaReal, ...place };
    } catch {
      return null; // gone or unreadable: named as not watched
    }
  }

  /** Every change outside, delivered to `deliver`; the session polls with `poll()`. */
  subscribe(deliver: (changes: FileChange[]) => void): OutsideSubscription {
    const subscriber: Subscriber = { deliver, subs: [], own: [] };
    for (const w of this.watched.values())
      subscriber.subs.push(this.attach(w, this.toldTo(subscriber, w)));
    this.subscribers.add(subscriber);
    return {
      unwatched: () => {
        // what only another server reads is not this one's to answer for
        const out = [...this.failed.keys()].filter((p) => this.concerns(subscriber, p));
        for (const { w, sub } of subscriber.subs) {
          if (!this.concerns(subscriber, w.dep.path)) continue;
          if (w.watcher.failed() !== null || sub.unwatched() > 0 || w.lookupsUnwatched)
            out.push(w.dep.path);
        }
        if (this.survey.incomplete) out.push(`${this.rootReal} (${SURVEY_INCOMPLETE})`);
        for (const dep of this.beyond.incomplete) out.push(`${dep} (${BEYOND_INCOMPLETE})`);
        return out.sort();
      },
      depend: (deps) => {
        subscriber.own = [...deps];
        if (!this.closed) this.update();
      },
      close: () => {
        this.subscribers.delete(subscriber);
        for (const { sub } of subscriber.subs) sub.close();
      },
    };
  }

  private attach(w: Watched, deliver: (changes: FileChange[]) => void) {
    const interest = (d: string) =>
      w.file === null && w.dep.kind === "tree" ? atOrBelow(w.dir, d) : d === w.dir;
    const { names } = w.dep;
    // a directory watched only where awaited paths would appear hears only those names
    // (a home directory's other entries come and go all the time)
    const awaitedOnly = w.dep.kind === "entries" && w.dep.awaits !== undefined;
    const only = (changes: FileChange[]) => {
      const mine =
        w.file !== null
          ? changes.filter((c) => c.abs === w.file)
          : awaitedOnly
            ? changes.filter((c) => awaitedStep(w, c.abs))
            : names !== undefined
              ? changes.filter((c) => names.test(basename(c.abs)))
              : changes;
      if (mine.length > 0) deliver(mine);
    };
    return { w, sub: w.watcher.subscribe(interest, only) };
  }

  /** Drain every outside watcher (before a call's first request, like the root's). */
  poll(): void {
    // the one queue read once, each watcher then takes its own
    this.hub.read();
    for (const w of this.watched.values()) w.watcher.poll(false);
    for (const w of this.lookups.poll())
      if (this.watched.get(w.dep.path) === w && movedOn(w)) this.repoint(w);
    // a directory made where an awaited path leads is no entry change a watcher reports
    // (its files are the new tree's): looked for here, then watched as what it now is
    for (const w of [...this.watched.values()]) {
      for (const path of w.awaiting) {
        const step = stepOf(w, path);
        if (step === null || !existsSync(step)) continue;
        this.appeared(w, { abs: step, kind: "created" }, reached(w, step));
        break;
      }
    }
    if (this.stale && !this.closed) {
      this.stale = false;
      this.update();
    }
  }

  /** `w`'s path leads elsewhere now: told as a change of both places; found again. */
  private repoint(w: Watched): void {
    const changes = repointed(w, w.file === null ? w.watcher.indexedFiles() : null);
    for (const s of this.subscribers)
      if (s.subs.some((x) => x.w === w) && this.concerns(s, w.dep.path)) s.deliver(changes);
    this.unwatch(w);
    if (w.dep.via !== undefined) this.survey.note([{ abs: w.dep.via, kind: "changed" }]);
    this.changedOutside(w.dep, changes);
  }

  /** A step to an awaited path appeared: told as a change once `reached`, found again. */
  private appeared(w: Watched, change: FileChange, reached: boolean): void {
    const told = reached ? [...this.subscribers].filter((s) => s.subs.some((x) => x.w === w)) : [];
    this.unwatch(w);
    // a directory that appeared is told as its files: what servers' globs and watchers match
    const changes = told.length > 0 ? [change, ...filesBelow(change.abs)] : [change];
    for (const s of told) if (this.concerns(s, w.dep.path)) s.deliver(changes);
    this.changedOutside(w.dep, changes);
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
    this.closed = true;
    this.lookups.close();
    for (const w of this.watched.values()) w.watcher.close();
    this.subscribers.clear();
    this.watched.clear();
    this.failed.clear();
  }
}
