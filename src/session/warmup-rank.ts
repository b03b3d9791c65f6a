/**
 * Which matching file represents the project, for a server that declares project files
 * (SPEC §3.3 `ready.project_files`), pure. Best first: a file its project includes (the
 * nearest project file in its directory or above: `files`, `include`, `exclude` and, for
 * JavaScript, `allowJs`), then not a declaration file, then not a tool's configuration
 * (`eslint.config.js`, `gulpfile.js`), then the server's first language before its others
 * (TypeScript before JavaScript). Outside any project the server sees only what the file
 * imports, so an entry point (`index.*`, `main.*`) comes first, then the shallowest.
 * Project files are tsconfig.json-shaped JSON with
 * comments and trailing commas; `extends` is not followed. Workspace content: lists and
 * patterns are bounded, and matching spends from a budget; once it is spent, a file
 * counts as included.
 */
import { posix } from "node:path";

export interface ProjectSpec {
  /** workspace-relative path of the project file */
  file: string;
  /** its directory ("" for the root) */
  dir: string;
  /** `files`, resolved against dir; null when absent */
  files: string[] | null;
  /** `include` patterns as path segments; the default `**\/*` when neither key is there */
  include: string[][];
  exclude: string[][];
  /** .js and .jsx files belong to it (jsconfig.json, or compilerOptions.allowJs) */
  allowJs: boolean;
}

const MAX_ENTRIES = 256;
const MAX_PATTERN_CHARS = 1024;
const MAX_SEGMENTS = 64;

/** Matching steps one warm-up may spend on project patterns. */
export const MATCH_BUDGET = 4_000_000;

/** What is left to spend; made per warm-up by its caller. */
export interface Budget {
  left: number;
}

const TS_FILE = /\.(?:[cm]?ts|tsx)$/;
const JS_FILE = /\.(?:[cm]?js|jsx)$/;
const DECLARATION = /\.d\.(?:[^./]+\.)?[cm]?ts$/;

/** Past the JSON string that starts at `i` (its closing quote, or the end). */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
  return j + 1;
}

/** JSON with comments and trailing commas → JSON: comments go, then trailing commas; strings are kept. */
export function stripJsonComments(text: string): string {
  let plain = "";
  let from = 0;
  for (let i = 0; i < text.length; ) {
    if (text[i] === '"') i = stringEnd(text, i);
    else if (text[i] === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) {
      plain += text.slice(from, i);
      const line = text[i + 1] === "/";
      const end = line ? text.indexOf("\n", i) : text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : line ? end : end + 2;
      plain += " ";
      from = i;
    } else i++;
  }
  plain += text.slice(from);
  let out = "";
  from = 0;
  for (let i = 0; i < plain.length; ) {
    if (plain[i] === '"') {
      i = stringEnd(plain, i);
      continue;
    }
    if (plain[i] === ",") {
      let j = i + 1;
      while (j < plain.length && /\s/.test(plain[j] as string)) j++;
      if (plain[j] === "}" || plain[j] === "]") {
        out += plain.slice(from, i);
        from = i + 1;
      }
      // the white space is not looked at again
      i = j;
      continue;
    }
    i++;
  }
  return out + plain.slice(from);
}

function stringList(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null;
  return value
    .slice(0, MAX_ENTRIES)
    .filter((v): v is string => typeof v === "string" && v.length <= MAX_PATTERN_CHARS);
}

/** A spec relative to the project's directory as workspace-relative segments; null when it leaves the root. */
function specSegments(dir: string, spec: string, pattern: boolean): string[] | null {
  if (spec.startsWith("/")) return null;
  let path = posix.normalize(posix.join(dir === "" ? "." : dir, spec));
  if (path.startsWith("../") || path === "..") return null;
  if (path.endsWith("/")) path = path.slice(0, -1);
  const segments = path === "." ? [] : path.split("/");
  const last = segments[segments.length - 1] ?? "";
  // a last component without a dot or a wildcard names a directory: everything below it
  if (pattern && !/[.*?]/.test(last)) segments.push("**", "*");
  return segments.length <= MAX_SEGMENTS ? segments : null;
}

/** A project file's text (tsconfig.json-shaped); unreadable or malformed: it includes everything. */
export function parseProject(file: string, text: string | undefined): ProjectSpec {
  const dir = posix.dirname(file) === "." ? "" : posix.dirname(file);
  let doc: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(stripJsonComments(text ?? "{}"));
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
      doc = parsed as Record<string, unknown>;
    }
  } catch {
    // malformed: as if empty, which includes everything below it
  }
  const options = doc.compilerOptions as Record<string, unknown> | undefined;
  const allowJs = posix.basename(file) === "jsconfig.json" || options?.allowJs === true;
  const files = stringList(doc.files);
  const includeSpecs = stringList(doc.include) ?? (files === null ? ["**/*"] : []);
  const patterns = (specs: string[]) =>
    specs.map((s) => specSegments(dir, s, true)).filter((s): s is string[] => s !== null);
  return {
    file,
    dir,
    files:
      files === null
        ? null
        : files.map((f) => specSegments(dir, f, false)?.join("/") ?? "").filter((f) => f !== ""),
    include: patterns(includeSpecs),
    exclude: patterns(stringList(doc.exclude) ?? []),
    allowJs,
  };
}

/** One path segment against one pattern segment of `*` and `?` (never `/`). */
function segmentMatches(pattern: string, name: string, budget: Budget): boolean {
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
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (pattern[p] === "*") p++;
  return p === pattern.length;
}

/** Path segments against pattern segments, `**` matching any number of them. */
export function pathMatches(
  pattern: readonly string[],
  path: readonly string[],
  budget: Budget,
): boolean {
  // reach[j]: the first i pattern segments can match the first j path segments
  let reach = path.map(() => false);
  reach = [true, ...reach];
  for (const seg of pattern) {
    const next = reach.map(() => false);
    for (let j = 0; j <= path.length; j++) {
      if (seg === "**") next[j] = reach[j] === true || (j > 0 && next[j - 1] === true);
      else if (j > 0 && reach[j - 1] === true) {
        next[j] = segmentMatches(seg, path[j - 1] as string, budget);
      }
    }
    reach = next;
  }
  return reach[path.length] === true;
}

/** Does the project include this workspace-relative file? Once the budget is spent: yes. */
export function projectIncludes(spec: ProjectSpec, rel: string, budget: Budget): boolean {
  if (spec.files?.includes(rel)) return true;
  if (!TS_FILE.test(rel) && !(spec.allowJs && JS_FILE.test(rel))) return false;
  const segments = rel.split("/");
  const included = spec.include.some((p) => pathMatches(p, segments, budget));
  const excluded = included && spec.exclude.some((p) => pathMatches(p, segments, budget));
  return budget.left < 0 || (included && !excluded);
}

/** A tool's configuration rather than the project's source. */
function configLike(rel: string): boolean {
  const base = posix.basename(rel);
  return (
    /\.(?:config|conf)\.[^.]+$/.test(base) ||
    /^(?:gulpfile|gruntfile|jakefile)\./i.test(base) ||
    /rc\.[cm]?js$/.test(base)
  );
}

/** Lower is better, compared in order; all zeros is the best a file can be. */
export type WarmupRank = readonly number[];

/** `language`: the index of the file's language among the server's languages. */
export function warmupRank(rel: string, included: boolean, language: number): WarmupRank {
  const kind = [DECLARATION.test(rel) ? 1 : 0, configLike(rel) ? 1 : 0, language];
  if (included) return [0, ...kind, 0, 0];
  const entry = /^(?:index|main)\.[^.]+$/.test(posix.basename(rel)) ? 0 : 1;
  return [1, ...kind, entry, rel.split("/").length - 1];
}

export function compareRanks(a: WarmupRank, b: WarmupRank): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

export const isBestRank = (r: WarmupRank): boolean => r.every((x) => x === 0);
