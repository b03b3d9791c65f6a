/**
 * How the workspace watcher treats a directory (SPEC §5.2). Never watched: version-control
 * internals and directories tagged with CACHEDIR.TAG (cargo's target/). Dependency trees
 * are followed at the package level: a container (`node_modules`, a `@scope` inside it,
 * `site-packages`, `dist-packages`) is watched, the package directories in it are not — a
 * package added, replaced or removed is a change of its directory's own path, what changes
 * inside a package in place is not seen. Pure but for the CACHEDIR.TAG look.
 */
import { existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";

const VCS_DIRECTORIES = new Set([".git", ".hg", ".svn", ".jj", ".bzr"]);

/** Directories whose entries are packages (node_modules, a Python environment's). */
const CONTAINERS = new Set(["node_modules", "site-packages", "dist-packages"]);

/** The file that tags a cache directory (the Cache Directory Tagging convention). */
export const CACHE_TAG = "CACHEDIR.TAG";

/**
 * "watch": watched, entries indexed; "container": watched, its subdirectories are packages;
 * "package": not watched, followed by its container; "excluded": neither.
 */
export type DirectoryScope = "watch" | "container" | "package" | "excluded";

/** What a directory is from its name and the names of its parent and grandparent. */
export function scopeOfNames(grandparent: string, parent: string, name: string): DirectoryScope {
  if (VCS_DIRECTORIES.has(name)) return "excluded";
  if (CONTAINERS.has(parent)) {
    return parent === "node_modules" && name.startsWith("@") ? "container" : "package";
  }
  if (parent.startsWith("@") && grandparent === "node_modules") return "package";
  return CONTAINERS.has(name) ? "container" : "watch";
}

/** What a directory is from its path alone (no CACHEDIR.TAG look). */
export function scopeByName(abs: string): DirectoryScope {
  const parent = dirname(abs);
  return scopeOfNames(basename(dirname(parent)), basename(parent), basename(abs));
}

/** What a directory is, the root's own tag aside (the root is always watched). */
export function directoryScope(abs: string): DirectoryScope {
  const scope = scopeByName(abs);
  if (scope === "excluded" || scope === "package") return scope;
  return existsSync(join(abs, CACHE_TAG)) ? "excluded" : scope;
}

/** Whether a path below `root` lies in a dependency tree (a container or a package in one). */
export function inDependencies(root: string, abs: string): boolean {
  for (let d = dirname(abs); d.length > root.length && d !== dirname(d); d = dirname(d)) {
    const scope = scopeByName(d);
    if (scope === "container" || scope === "package") return true;
  }
  return false;
}
