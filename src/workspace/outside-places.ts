/**
 * Where a watched outside dependency is (SPEC §5.3): an inotify watch follows its
 * directory, not the path, so a directory moved away or replaced is watched anew where it
 * was; one that appears there is told as its files, what a server's globs and watchers match.
 */
import { type Dirent, existsSync, readdirSync, realpathSync, statSync } from "node:fs";
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
  return { followed, dir, identity: `${st.dev}:${st.ino}` };
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

/**
 * What a directory's path changed when it came to lead elsewhere, under the path's names:
 * the files it led to (`before`, real paths below `place.dir`) gone, those it leads to now
 * created, a name in both changed.
 */
export function repointed(place: Place, before: readonly string[]): FileChange[] {
  const was = new Set(before.map((abs) => join(place.followed, relative(place.dir, abs))));
  const out: FileChange[] = filesBelow(place.followed).map(({ abs }) => ({
    abs,
    kind: was.delete(abs) ? "changed" : "created",
  }));
  for (const abs of was) out.push({ abs, kind: "deleted" });
  return out;
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
