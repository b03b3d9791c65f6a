/**
 * Listing a workspace's directories for the watcher (SPEC §5.2) when it holds more than
 * the watcher may watch: every directory the watcher would watch is counted, and those it
 * could watch are kept as a tree (parent, depth, whether they hold source files) for
 * watch-order.ts to rank. A directory whose path is longer than the kernel accepts
 * (PATH_MAX) can never be watched: it is counted with everything below it, listed through
 * directory handles one step at a time (a path that long is never passed to a system
 * call). Links are never followed. Bounded: past `limit` directories the count stops and
 * is a lower bound.
 */
import { closeSync, type Dirent, readdirSync } from "node:fs";
import { OPEN, openAt } from "../ffi/syscalls.ts";
import type { OrderNode } from "./watch-order.ts";
import { CACHE_TAG, scopeByName, scopeOfNames } from "./watch-scope.ts";

/** Linux PATH_MAX, the terminating NUL included: no system call takes a longer path. */
export const PATH_MAX = 4096;

/** Whether a path is too long for any system call (so never watched). */
export function tooLong(abs: string): boolean {
  return Buffer.byteLength(abs) >= PATH_MAX;
}

/** A directory of the walk: the node watch-order.ts ranks. */
export type WalkNode = OrderNode;

export interface Walk {
  nodes: WalkNode[];
  /** directories counted: the nodes, and everything below the deep ones */
  count: number;
  /** the limit was reached: there are more */
  truncated: boolean;
}

export interface WalkRules {
  /** a directory the watcher's subscribers ask about */
  interested(abs: string): boolean;
  /** a file name a subscribed server serves */
  isSource(name: string): boolean;
  /** directories counted at most */
  limit: number;
}

function listing(path: string): Dirent[] | null {
  try {
    return readdirSync(path, { withFileTypes: true });
  } catch {
    return null; // gone meanwhile, or not readable
  }
}

/** `top` (watchable, of interest) and every directory below it the watcher would watch. */
export function walkTree(top: string, rules: WalkRules): Walk {
  const nodes: WalkNode[] = [
    { parent: -1, path: top, depth: 0, source: false, deep: 0, cache: false },
  ];
  let count = 1;
  let truncated = false;
  for (let i = 0; i < nodes.length && !truncated; i++) {
    const node = nodes[i] as WalkNode;
    if (node.deep > 0) continue;
    const entries = listing(node.path) ?? [];
    if (i > 0 && entries.some((f) => f.name === CACHE_TAG && !f.isDirectory())) {
      node.cache = true;
      count -= 1;
      continue;
    }
    for (const e of entries) {
      if (!e.isDirectory()) {
        if (rules.isSource(e.name)) node.source = true;
        continue;
      }
      const path = `${node.path}/${e.name}`;
      const scope = scopeByName(path);
      if (scope === "excluded" || scope === "package" || !rules.interested(path)) continue;
      if (count >= rules.limit) {
        truncated = true;
        break;
      }
      if (tooLong(path)) {
        const below = countDeep(node.path, e.name, rules.limit - count);
        if (below.count === 0) continue;
        const deep = below.count;
        nodes.push({ parent: i, path, depth: node.depth + 1, source: false, deep, cache: false });
        count += below.count;
        truncated ||= below.truncated;
        continue;
      }
      nodes.push({ parent: i, path, depth: node.depth + 1, source: false, deep: 0, cache: false });
      count += 1;
    }
  }
  return { nodes, count, truncated };
}

/** A step of a walk by handle: the new handle, the old one closed; throws, keeping it. */
function step(fd: number, name: string): number {
  const next = openAt(fd, name, OPEN.dirStep);
  closeSync(fd);
  return next;
}

/** The subdirectories of an open directory the watcher would watch; null: a cache. */
function subdirectories(fd: number, names: string[]): string[] | null {
  let entries: Dirent[];
  try {
    entries = readdirSync(`/proc/self/fd/${fd}`, { withFileTypes: true });
  } catch {
    return [];
  }
  if (entries.some((e) => e.name === CACHE_TAG && !e.isDirectory())) return null;
  const [grandparent = "", parent = ""] = names.slice(-2);
  return entries
    .filter((e) => {
      if (!e.isDirectory()) return false;
      const scope = scopeOfNames(grandparent, parent, e.name);
      return scope === "watch" || scope === "container";
    })
    .map((e) => e.name);
}

/**
 * How many directories the watcher would watch at and below `parent/name`, depth first
 * through handles: one descriptor open at a time, `..` to climb back. At most `budget`.
 */
export function countDeep(
  parent: string,
  name: string,
  budget: number,
): { count: number; truncated: boolean } {
  let fd: number;
  try {
    fd = openAt(null, parent, OPEN.dirStep);
  } catch {
    return { count: 0, truncated: false };
  }
  let count = 0;
  try {
    fd = step(fd, name);
    const names = [parent.slice(parent.lastIndexOf("/") + 1), name];
    const first = subdirectories(fd, names);
    if (first === null) return { count: 0, truncated: false };
    count = 1;
    const stack: string[][] = [first];
    while (stack.length > 0) {
      if (count >= budget) return { count, truncated: true };
      const top = stack[stack.length - 1] as string[];
      const next = top.pop();
      if (next === undefined) {
        stack.pop();
        names.pop();
        if (stack.length > 0) fd = step(fd, "..");
        continue;
      }
      try {
        fd = step(fd, next);
      } catch {
        continue; // gone meanwhile, or not searchable
      }
      names.push(next);
      const below = subdirectories(fd, names);
      if (below === null) {
        names.pop();
        fd = step(fd, "..");
        continue;
      }
      count += 1;
      stack.push(below);
    }
    return { count, truncated: false };
  } catch {
    return { count, truncated: true }; // the tree moved under the walk
  } finally {
    closeSync(fd);
  }
}
