/**
 * What the workspace watcher never watches (SPEC §5.2): version-control internals, the
 * packages inside node_modules, and directories tagged with CACHEDIR.TAG (cargo's target/).
 */
import { existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";

const VCS_DIRECTORIES = new Set([".git", ".hg", ".svn", ".jj", ".bzr"]);

/** The file that tags a cache directory (the Cache Directory Tagging convention). */
export const CACHE_TAG = "CACHEDIR.TAG";

/** Directories never watched. */
export function excludedDirectory(abs: string): boolean {
  if (VCS_DIRECTORIES.has(basename(abs))) return true;
  if (basename(dirname(abs)) === "node_modules") return true;
  return existsSync(join(abs, CACHE_TAG));
}
