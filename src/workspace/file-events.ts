/**
 * File events as the LSP sees them (SPEC §5.2), pure: the watchers a server
 * registered for `workspace/didChangeWatchedFiles` (glob as a string or a
 * RelativePattern, `kind` bits), which changes match them, and coalescing of
 * the changes seen between two requests into one event per file.
 */
import { isAbsolute, join } from "node:path";
import type { Registration } from "vscode-languageserver-protocol";
import { atOrBelow, relativeInside } from "./paths.ts";
import { uriToPath } from "./uri.ts";

export type ChangeKind = "created" | "changed" | "deleted";

export interface FileChange {
  /** absolute path (inside the workspace root) */
  abs: string;
  kind: ChangeKind;
}

/** LSP FileChangeType */
export const FILE_CHANGE_TYPE: Record<ChangeKind, 1 | 2 | 3> = {
  created: 1,
  changed: 2,
  deleted: 3,
};

/** LSP WatchKind bits */
const WATCH_KIND_BIT: Record<ChangeKind, number> = { created: 1, changed: 2, deleted: 4 };

export interface CompiledWatcher {
  /** the pattern as registered, for session_status */
  pattern: string;
  /** RelativePattern: absolute base directory; string pattern: null */
  base: string | null;
  glob: Bun.Glob;
  /** WatchKind bits, default 7 */
  kind: number;
  /**
   * The directory under which every match lies (literal prefix of the pattern), or null
   * when a relative string pattern can match anywhere.
   */
  scope: string | null;
}

const GLOB_META = /[*?[\]{}]/;

/** `start` joined with the literal leading directory segments of a glob. */
function literalPrefix(start: string, pattern: string): string {
  const literal: string[] = [];
  // the last segment names files, never a directory to descend into
  for (const part of pattern.split("/").slice(0, -1)) {
    if (GLOB_META.test(part)) break;
    literal.push(part);
  }
  return join(start, ...literal);
}

/**
 * What a watcher whose scope lies outside the root reaches there (SPEC §5.3): the one path
 * a pattern without a wildcard names (a directory a server waits for, like its user
 * configuration's), the entries of its scope when only the last segment has one, else the
 * whole tree below its scope.
 */
export function watcherReach(
  w: CompiledWatcher,
): { path: string; kind: "file" | "entries" | "tree" } | null {
  if (w.scope === null) return null;
  if (!GLOB_META.test(w.pattern)) return { path: w.pattern, kind: "file" };
  const last = w.pattern.slice(w.pattern.lastIndexOf("/") + 1);
  const onlyLast = !GLOB_META.test(w.pattern.slice(0, -last.length)) && !last.includes("**");
  return { path: w.scope, kind: onlyLast ? "entries" : "tree" };
}

function trimSlash(p: string): string {
  return p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p;
}

function compileOne(raw: unknown): CompiledWatcher | null {
  if (raw === null || typeof raw !== "object") return null;
  const { globPattern, kind } = raw as { globPattern?: unknown; kind?: unknown };
  const bits = typeof kind === "number" && Number.isInteger(kind) && kind > 0 ? kind & 7 : 7;
  if (typeof globPattern === "string" && globPattern.length > 0) {
    const scope = isAbsolute(globPattern) ? literalPrefix("/", globPattern) : null;
    return { pattern: globPattern, base: null, glob: new Bun.Glob(globPattern), kind: bits, scope };
  }
  if (globPattern !== null && typeof globPattern === "object") {
    const { baseUri, pattern } = globPattern as { baseUri?: unknown; pattern?: unknown };
    const uri =
      typeof baseUri === "string"
        ? baseUri
        : typeof (baseUri as { uri?: unknown } | null)?.uri === "string"
          ? (baseUri as { uri: string }).uri
          : undefined;
    const base = uri === undefined ? null : uriToPath(uri);
    if (base === null || typeof pattern !== "string" || pattern.length === 0) return null;
    const dir = trimSlash(base);
    return {
      pattern: `${dir}/${pattern}`,
      base: dir,
      glob: new Bun.Glob(pattern),
      kind: bits,
      scope: literalPrefix(dir, pattern),
    };
  }
  return null;
}

/** Every valid watcher of every `workspace/didChangeWatchedFiles` registration; the rest is ignored. */
export function compileWatchers(registrations: Iterable<Registration>): CompiledWatcher[] {
  const out: CompiledWatcher[] = [];
  for (const r of registrations) {
    if (r.method !== "workspace/didChangeWatchedFiles") continue;
    const watchers = (r.registerOptions as { watchers?: unknown } | undefined)?.watchers;
    if (!Array.isArray(watchers)) continue;
    for (const w of watchers) {
      const compiled = compileOne(w);
      if (compiled) out.push(compiled);
    }
  }
  return out;
}

/** `abs` relative to `dir` when strictly below it, as a POSIX path; null otherwise. */
function below(dir: string, abs: string): string | null {
  const rel = relativeInside(dir, abs);
  return rel === "." ? null : rel;
}

/**
 * Whether a change matches a watcher. A RelativePattern matches paths below its base;
 * a string pattern matches the absolute path, and (leniently, for servers that register
 * workspace-relative strings) the path relative to the workspace root.
 */
export function watcherMatches(w: CompiledWatcher, change: FileChange, root: string): boolean {
  if ((w.kind & WATCH_KIND_BIT[change.kind]) === 0) return false;
  if (w.base !== null) {
    const rel = below(w.base, change.abs);
    return rel !== null && w.glob.match(rel);
  }
  if (w.glob.match(change.abs)) return true;
  if (isAbsolute(w.pattern)) return false;
  const rel = below(root, change.abs);
  return rel !== null && w.glob.match(rel);
}

/** The changes a server asked about, in order (the LSP `FileEvent[]` payload). */
export function matchingEvents(
  watchers: CompiledWatcher[],
  changes: FileChange[],
  root: string,
): FileChange[] {
  if (watchers.length === 0) return [];
  return changes.filter((c) => watchers.some((w) => watcherMatches(w, c, root)));
}

/**
 * Whether anything a watcher could match lies in or below directory `dir` (absolute):
 * the directory is inside a watcher's scope, or on the way to it.
 */
export function directoryOfInterest(watchers: CompiledWatcher[], dir: string): boolean {
  for (const w of watchers) {
    if (w.scope === null) return true;
    if (atOrBelow(w.scope, dir) || atOrBelow(dir, w.scope)) return true;
  }
  return false;
}

/** What several changes to one file between two looks amount to (null: nothing happened). */
function combine(first: ChangeKind, then: ChangeKind): ChangeKind | null {
  if (first === "created") return then === "deleted" ? null : "created";
  if (first === "deleted") return then === "deleted" ? "deleted" : "changed";
  return then === "deleted" ? "deleted" : "changed";
}

/**
 * One change per file, in the order each file was first seen: created then changed is
 * created, created then deleted is nothing, deleted then created is changed, anything
 * then deleted is deleted.
 */
export function coalesce(changes: FileChange[]): FileChange[] {
  const byPath = new Map<string, ChangeKind | null>();
  for (const c of changes) {
    const prev = byPath.get(c.abs);
    if (prev === undefined) byPath.set(c.abs, c.kind);
    else byPath.set(c.abs, prev === null ? c.kind : combine(prev, c.kind));
  }
  const out: FileChange[] = [];
  for (const [abs, kind] of byPath) if (kind !== null) out.push({ abs, kind });
  return out;
}

/** A configuration's glob patterns, compiled (matched by `globPath`). */
export function globs(patterns: readonly string[]): Bun.Glob[] {
  return patterns.map((g) => new Bun.Glob(g));
}

/**
 * What a configuration's globs match a file by: its root-relative path, or outside the
 * root (a dependency, SPEC §5.3) its absolute path without the `/`, so `**`-globs apply
 * there too (a package in a virtual environment elsewhere).
 */
export function globPath(root: string, abs: string): string {
  return relativeInside(root, abs) ?? abs.slice(1);
}

/** The first change one of `globs` matches (by `globPath`), as "path kind". */
export function firstMatch(
  globs: readonly Bun.Glob[],
  changes: readonly FileChange[],
  root: string,
): string | undefined {
  for (const c of changes) {
    const name = globPath(root, c.abs);
    if (globs.some((g) => g.match(name)))
      return `${relativeInside(root, c.abs) ?? c.abs} ${c.kind}`;
  }
  return undefined;
}
