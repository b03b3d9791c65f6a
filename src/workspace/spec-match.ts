/**
 * Path patterns of project configuration files (tsconfig.json `include`/`exclude`,
 * pyright's `include`/`exclude`), matched as their servers match them, pure: a pattern is
 * a list of path segments (`**` any number of them, `*` and `?` within one). `files` mode
 * is tsserver's for `include`: wildcards never match a name starting with a dot (a leading
 * `*` may match nothing), nor the package folders, and `*` never takes in the dot of a
 * trailing `.min.js`; the whole path must match. `prefix` mode is tsserver's for `exclude`
 * and pyright's for both: anything goes, and a pattern matching the first segments of a
 * path matches the path (a directory excludes what lies below it). Patterns come from the
 * workspace: every step spends from a budget, and once it is spent a match is assumed.
 */
import { posix } from "node:path";

/** What is left to spend; made per question by its caller. */
export interface Budget {
  left: number;
}

/** Matching steps one question may spend (a warm-up's ranking, an answer's mark). */
export const MATCH_BUDGET = 4_000_000;

export type MatchMode = "files" | "prefix";

/** tsserver's implicitly excluded folders: no wildcard of an `include` matches them. */
const PACKAGE_FOLDERS = new Set(["node_modules", "bower_components", "jspm_packages"]);
const MAX_SEGMENTS = 64;

/**
 * `spec` (a path relative to `dir`, or absolute) as workspace-relative segments; null when it
 * leaves the root. A last segment without a dot or a wildcard names a directory: `dirGlob`
 * then appends what stands for everything below it (`**`, `*`), as tsserver does.
 */
export function specSegments(dir: string, spec: string, dirGlob: boolean): string[] | null {
  if (spec.startsWith("/") || spec.includes("\0")) return null;
  let path = posix.normalize(posix.join(dir === "" ? "." : dir, spec));
  if (path.startsWith("../") || path === "..") return null;
  if (path.endsWith("/")) path = path.slice(0, -1);
  const segments = path === "." ? [] : path.split("/");
  const last = segments[segments.length - 1] ?? "";
  if (dirGlob && !/[.*?]/.test(last)) segments.push("**", "*");
  return segments.length <= MAX_SEGMENTS ? segments : null;
}

/** `*` and `?` over one name; `noStarAt`: an index no `*` may take in (-1: none). */
function glob(pattern: string, name: string, budget: Budget, noStarAt: number): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (--budget.left < 0) return true;
    if (p < pattern.length && (pattern[p] === "?" || pattern[p] === name[n])) {
      p++;
      n++;
    } else if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      resume = n;
    } else if (star >= 0 && resume !== noStarAt) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (pattern[p] === "*") p++;
  return p === pattern.length;
}

/** One path segment against one pattern segment. */
export function segmentMatches(
  pattern: string,
  name: string,
  budget: Budget,
  mode: MatchMode,
  last: boolean,
): boolean {
  // most segments are literal: a name matches only itself
  if (!pattern.includes("*") && !pattern.includes("?")) return pattern === name;
  if (mode === "prefix") return glob(pattern, name, budget, -1);
  if (PACKAGE_FOLDERS.has(name)) return false;
  if (name.startsWith(".") && (pattern[0] === "*" || pattern[0] === "?")) {
    return pattern[0] === "*" && glob(pattern.slice(1), name, budget, -1);
  }
  const noStarAt = last && name.endsWith(".min.js") ? name.length - 7 : -1;
  return glob(pattern, name, budget, noStarAt);
}

/** Can `**` stand for this segment? In `files` mode not for dot names and package folders. */
function anySegment(name: string, mode: MatchMode): boolean {
  return mode === "prefix" || (!name.startsWith(".") && !PACKAGE_FOLDERS.has(name));
}

/** Path segments against pattern segments; once the budget is spent: a match. */
export function pathMatches(
  pattern: readonly string[],
  path: readonly string[],
  budget: Budget,
  mode: MatchMode = "files",
): boolean {
  // reach[j]: the pattern segments so far can match the first j path segments
  let reach: boolean[] = new Array(path.length + 1).fill(false);
  let next: boolean[] = new Array(path.length + 1).fill(false);
  reach[0] = true;
  for (const seg of pattern) {
    let any = false;
    for (let j = 0; j <= path.length; j++) {
      const name = path[j - 1] as string;
      if (seg === "**") {
        next[j] = reach[j] === true || (j > 0 && next[j - 1] === true && anySegment(name, mode));
      } else {
        next[j] =
          j > 0 &&
          reach[j - 1] === true &&
          segmentMatches(seg, name, budget, mode, j === path.length);
      }
      any ||= next[j] === true;
    }
    [reach, next] = [next, reach];
    if (budget.left < 0) return true;
    if (!any) return false;
  }
  // a prefix match may end at the root itself: every path lies below it
  return mode === "files" ? reach[path.length] === true : reach.some((r) => r);
}
