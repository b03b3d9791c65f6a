/**
 * Version-control internals are never written by an apply (SPEC §7.4), pure: a server's
 * edit into `.git` (a hook runs on the next commit), `.hg`, `.svn`, `.jj` or `.bzr`, at any
 * depth, is refused whatever it writes. Judged on the real workspace-relative path, so a
 * link inside the root that leads there is caught too; matched without case, as a
 * case-insensitive file system would.
 */

const VCS_DIRS: ReadonlySet<string> = new Set([".git", ".hg", ".svn", ".jj", ".bzr"]);

/** The version-control directory (or `.git` file) a relative path lies in, or undefined. */
export function versionControlPart(rel: string): string | undefined {
  return rel.split("/").find((part) => VCS_DIRS.has(part.toLowerCase()));
}
