/**
 * Where a watched outside dependency is (SPEC §5.3): an inotify watch follows its
 * directory, not the path, so a directory moved away or replaced is watched anew where it
 * was; one that appears there is told as its files, what a server's globs and watchers match.
 */
import { type Dirent, existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import type { FileChange } from "./file-events.ts";
import { isSystemPath, type OutsideDependency } from "./outside-deps.ts";
import { resolveOutside } from "./outside-resolve.ts";

/** A watched directory: the path it was reached by, where that led, and what it was. */
export interface Place {
  followed: string;
  dir: string;
  /** device and inode: what an inotify watch is bound to */
  identity: string;
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

/** A path to nothing yet: the entries of the nearest directory that exists, or null. */
export function whereItWouldAppear(
  dep: OutsideDependency,
  rootReal: string,
): OutsideDependency | null {
  if (dep.awaits !== undefined || existsSync(dep.path)) return null;
  const where = resolveOutside({ rootReal, isSystem: isSystemPath }, dep.path, dep.source);
  return where?.awaits === undefined ? null : where;
}
