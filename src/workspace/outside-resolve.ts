/**
 * What a path found by the survey leads to outside the root (SPEC §5.3 "dependencies
 * outside the root"): the dependency to watch, or none.
 */
import { realpathSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { OutsideDependency } from "./outside-deps.ts";
import { atOrBelow } from "./paths.ts";

export interface ResolveContext {
  /** the root's real path */
  rootReal: string;
  /** a path is the host's (its system directories), not a dependency */
  isSystem: (abs: string) => boolean;
}

/**
 * What `path` leads to when that exists outside the root and is not the host's: a
 * directory with everything below it, or a file — in a source (`module`), the file's
 * whole directory, since what it includes in turn lies beside it or below (a source
 * never names a directory holding the root: no dependency). A path to nothing yet: the
 * entries of the nearest directory above it that exists outside the root, where it would
 * appear (`awaits` names the path, so that what appears there is found again). The file
 * system's root is no one's dependency.
 */
export function resolveOutside(
  ctx: ResolveContext,
  path: string,
  source: string,
  module = false,
  /** a path to nothing yet is watched where it would appear */
  appear = true,
): OutsideDependency | null {
  let candidate = path;
  let missing = false;
  for (;;) {
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch {
      const up = dirname(candidate);
      if (up === candidate || !appear) return null;
      candidate = up;
      missing = true;
      continue;
    }
    if (real === "/" || atOrBelow(ctx.rootReal, real) || ctx.isSystem(real)) return null;
    if (missing) {
      // a module named without its extension lies in a tree a source may reach into
      const tree = module && !atOrBelow(real, ctx.rootReal);
      return { path: real, kind: tree ? "tree" : "entries", source, awaits: path };
    }
    let dir: boolean;
    try {
      dir = statSync(real).isDirectory();
    } catch {
      return null;
    }
    const via = real === path ? {} : { via: path };
    if (!module) return { path: real, kind: dir ? "tree" : "file", source, ...via };
    if (dir)
      return atOrBelow(real, ctx.rootReal) ? null : { path: real, kind: "tree", source, ...via };
    const parent = dirname(real);
    return atOrBelow(parent, ctx.rootReal) || parent === "/"
      ? { path: real, kind: "file", source }
      : { path: parent, kind: "tree", source };
  }
}
