/**
 * What the discovery scan never walks (SPEC §2.1), pure: vendored and generated trees, dot
 * directories, and what the root `.gitignore` names in gitignore's common subset (negations
 * not honoured: skipping more is the safe side).
 */

/** Directory names that hold dependencies or build output, never the project's own sources. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  ...[
    "node_modules",
    "bower_components",
    "jspm_packages",
    "vendor",
    "site-packages",
    "__pycache__",
  ],
  ...["target", "build", "dist", "out"],
]);

/** Build-tree prefixes (CMake's IDE trees, Bazel's output links). */
const SKIPPED_PREFIXES = ["cmake-build-", "bazel-"];

/** gitignore patterns read at most: the scan's cost stays bounded by a hostile file. */
const MAX_PATTERNS = 200;

/** Skipped by name alone: dot-directories, vendored and build trees. */
export function skippedByName(name: string): boolean {
  return (
    name.startsWith(".") ||
    SKIPPED_DIRS.has(name) ||
    SKIPPED_PREFIXES.some((p) => name.startsWith(p))
  );
}

interface Pattern {
  glob: Bun.Glob;
  dirOnly: boolean;
}

/** Trailing white space removed unless backslash-quoted, in one pass (no backtracking). */
export function trimUnescaped(line: string): string {
  let end = line.length;
  while (end > 0 && /\s/.test(line[end - 1] as string)) end -= 1;
  if (end < line.length && end > 0 && line[end - 1] === "\\") end += 1;
  return line.slice(0, end);
}

/** A matcher for workspace-relative POSIX paths from a root `.gitignore`'s text. */
export function gitignoreMatcher(text: string): (rel: string, isDir: boolean) => boolean {
  const patterns: Pattern[] = [];
  for (const raw of text.split(/\r?\n/)) {
    if (patterns.length >= MAX_PATTERNS) break;
    let line = trimUnescaped(raw);
    if (line === "" || line.startsWith("#") || line.startsWith("!")) continue;
    const dirOnly = line.endsWith("/");
    if (dirOnly) line = line.slice(0, -1);
    // a slash at the start or in the middle anchors the pattern to the root
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    if (line === "" || line === "**") continue;
    patterns.push({ glob: new Bun.Glob(anchored ? line : `**/${line}`), dirOnly });
  }
  if (patterns.length === 0) return () => false;
  return (rel, isDir) => patterns.some((p) => (isDir || !p.dirOnly) && p.glob.match(rel));
}
