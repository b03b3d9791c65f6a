/**
 * Symbolic links inside a workspace that lead to a file or directory inside it (SPEC §5.2).
 * The watcher never descends into a link: it watches the target under its real path, and a
 * server that reached a file through the link knows it under the link's path too, so every
 * change is delivered under each path it has inside the root. `aliasesOf` is pure: each
 * link is used at most once per path (a link to its own ancestor or two links into each
 * other cannot loop), and at most MAX_ALIASES paths are made per change. Links out of the
 * root are never followed.
 */
import { realpathSync, statSync } from "node:fs";
import type { FileChange } from "./file-events.ts";
import { atOrBelow } from "./paths.ts";

/** Links followed per workspace at most; beyond, new ones are counted, not followed. */
export const MAX_LINKS = 256;
/** Paths one change is delivered under besides its own, at most. */
export const MAX_ALIASES = 8;

/** Where a link inside `root` leads, when that is a file or directory inside `root`. */
export function linkTarget(root: string, abs: string): string | null {
  try {
    const real = realpathSync(abs);
    if (real === abs || !atOrBelow(root, real)) return null;
    const stats = statSync(real);
    return stats.isDirectory() || stats.isFile() ? real : null;
  } catch {
    return null; // dangling, a loop, not readable
  }
}

/**
 * Every other path inside the root `abs` is known by through `links` (link path → its
 * real target), shortest chains first.
 */
export function aliasesOf(abs: string, links: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  const seen = new Set([abs]);
  const queue: { path: string; used: Set<string> }[] = [{ path: abs, used: new Set() }];
  for (let i = 0; i < queue.length && out.length < MAX_ALIASES; i++) {
    const { path, used } = queue[i] as (typeof queue)[number];
    for (const [link, target] of links) {
      if (used.has(link) || !atOrBelow(target, path)) continue;
      const alias = link + path.slice(target.length);
      if (seen.has(alias)) continue;
      seen.add(alias);
      out.push(alias);
      queue.push({ path: alias, used: new Set([...used, link]) });
      if (out.length >= MAX_ALIASES) break;
    }
  }
  return out;
}

/** The changes with each one's aliases added after it, same kind. */
export function withAliases(
  changes: FileChange[],
  links: ReadonlyMap<string, string>,
): FileChange[] {
  if (links.size === 0) return changes;
  const out: FileChange[] = [];
  for (const c of changes) {
    out.push(c);
    for (const alias of aliasesOf(c.abs, links)) out.push({ abs: alias, kind: c.kind });
  }
  return out;
}
