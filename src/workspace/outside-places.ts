/**
 * Where a watched outside dependency is (SPEC §5.3): an inotify watch follows its
 * directory, not the path, so a directory moved away or replaced is watched anew where it
 * was; one that appears there is told as its files, what a server's globs and watchers match.
 */
import {
  accessSync,
  constants,
  type Dirent,
  existsSync,
  readdirSync,
  realpathSync,
  statSync,
} from "node:fs";
import { join, relative } from "node:path";
import type { FileChange } from "./file-events.ts";
import { isSystemPath, type OutsideDependency } from "./outside-deps.ts";
import { resolveOutside } from "./outside-resolve.ts";
import { atOrBelow } from "./paths.ts";

/** A watched directory: the path it was reached by, where that led, and what it was. */
export interface Place {
  followed: string;
  dir: string;
  /** device and inode: what an inotify watch is bound to */
  identity: string;
}

/** A watched directory and the paths to nothing yet that would appear below it. */
interface Awaiting {
  dir: string;
  awaiting: ReadonlySet<string>;
}

/** The entry of `w`'s directory on the way to `path`, or null when it is not below it. */
export function stepOf(w: Awaiting, path: string): string | null {
  const step = join(w.dir, relative(w.dir, path).split("/")[0] ?? "");
  return step === w.dir || !atOrBelow(w.dir, step) ? null : step;
}

/** Whether `abs`, in `w`'s directory, is the first step of a path `w` awaits. */
export function awaitedStep(w: Awaiting, abs: string): boolean {
  for (const path of w.awaiting) if (stepOf(w, path) === abs) return true;
  return false;
}

/** Whether a path `w` awaits through `step` is there now (`~/.config` alone is not). */
export function reached(w: Awaiting, step: string): boolean {
  for (const path of w.awaiting) if (stepOf(w, path) === step && existsSync(path)) return true;
  return false;
}

/** The place `followed` leads to now; throws when it leads nowhere. */
export function placeOf(followed: string): Place {
  const dir = realpathSync(followed);
  const st = statSync(dir);
  // a directory the bridge may not list is no place to watch (chmod 000 on the way)
  accessSync(dir, constants.R_OK | constants.X_OK);
  return { followed, dir, identity: `${st.dev}:${st.ino}` };
}

/** Where `path` leads now, or null when it leads nowhere the bridge may read. */
export function leadsTo(path: string): string | null {
  try {
    const real = realpathSync(path);
    accessSync(real, constants.R_OK);
    return real;
  } catch {
    return null;
  }
}

/** Whether the path still leads to the directory the watch follows. */
export function stillAt(place: Place): boolean {
  try {
    const now = placeOf(place.followed);
    return now.dir === place.dir && now.identity === place.identity;
  } catch {
    return false;
  }
}

/** The most files of a directory that appeared told one by one (the first found). */
const MAX_APPEARED_FILES = 4096;

/** The files below `dir` as created, links not followed; none for a file. */
export function filesBelow(dir: string): FileChange[] {
  const out: FileChange[] = [];
  const stack = [dir];
  for (let d = stack.pop(); d !== undefined; d = stack.pop()) {
    let entries: Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      continue; // a file, or gone again
    }
    for (const e of entries) {
      const abs = join(d, e.name);
      if (e.isDirectory()) stack.push(abs);
      else if (out.push({ abs, kind: "created" }) >= MAX_APPEARED_FILES) return out;
    }
  }
  return out;
}

/** The path a dependency was named by, and where it led when its watch was made. */
export interface Followed {
  via: string;
  viaReal: string | null;
}

/** Whether a watched path leads elsewhere than where it is watched. */
export function movedOn(w: Place & Followed): boolean {
  return !stillAt(w) || leadsTo(w.via) !== w.viaReal;
}

/**
 * What changed for a path that came to lead elsewhere: the files it led to (`before`, the
 * watch's index; null: the path names one file) and those it leads to now, by their real
 * paths — changes outside the root, which no server is shown to follow (SPEC §5.3).
 */
export function repointed(w: Followed, before: readonly string[] | null): FileChange[] {
  const now = leadsTo(w.via);
  const was = before ?? (w.viaReal === null ? [] : [w.viaReal]);
  const is = now === null ? [] : before === null ? [now] : filesBelow(now).map((c) => c.abs);
  const out = new Map<string, FileChange>(was.map((abs) => [abs, { abs, kind: "changed" }]));
  for (const abs of is) if (!out.has(abs)) out.set(abs, { abs, kind: "created" });
  return [...out.values()];
}

/** A path to nothing yet: the entries of the nearest directory that exists, or null. */
export function whereItWouldAppear(
  dep: OutsideDependency,
  rootReal: string,
): OutsideDependency | null {
  if (dep.awaits !== undefined || existsSync(dep.path)) return null;
  const where = resolveOutside({ rootReal, isSystem: isSystemPath }, dep.path, dep.source);
  return where?.awaits === undefined ? null : where;
}
