/**
 * Canonical orders (SPEC §4.3). Every comparator is a total order: it tie-breaks on every
 * field, ending with the serialized form where objects can otherwise be equal, so the
 * output never depends on the order a server happened to send.
 */

import { canonicalJson } from "./json.ts";
import type {
  DiagnosticOut,
  Range,
  SeverityName,
  SymbolNode,
  Target,
  WorkspaceSymbolOut,
} from "./types.ts";

/** Code-unit order; never localeCompare, whose result depends on the host locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Absent sorts before present. */
export function compareOptionalStrings(a: string | undefined, b: string | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? -1 : 1;
  return compareStrings(a, b);
}

/**
 * `sorted` without the items equal to the one before them: under a total order that
 * compares every field, exact duplicates lie side by side.
 */
export function withoutAdjacentDuplicates<T>(
  sorted: readonly T[],
  compare: (a: T, b: T) => number,
): T[] {
  const out: T[] = [];
  for (const item of sorted) {
    const last = out[out.length - 1];
    if (last === undefined || compare(last, item) !== 0) out.push(item);
  }
  return out;
}

/**
 * Workspace files first, then files outside the workspace (absolute: a leading slash, the
 * bridge runs on Linux), then non-file URIs.
 */
function targetRank(t: Target): number {
  if ("file" in t) return t.file.startsWith("/") ? 1 : 0;
  return 2;
}

function targetKey(t: Target): string {
  return "file" in t ? t.file : t.uri;
}

export function compareTarget(a: Target, b: Target): number {
  return targetRank(a) - targetRank(b) || compareStrings(targetKey(a), targetKey(b));
}

export function compareRange(a: Range, b: Range): number {
  return (
    a.line - b.line || a.column - b.column || a.end_line - b.end_line || a.end_column - b.end_column
  );
}

/** Locations: by file (or uri), then position. */
export function compareLoc(a: Target & Range, b: Target & Range): number {
  return compareTarget(a, b) || compareRange(a, b);
}

/** Digits of the largest safe integer: numbers this wide, zero-padded, order as text. */
const WIDTH = 16;

/**
 * A location's place in compareLoc's order as text that orders alike in code units: its
 * target's rank, its key and a NUL (below every other code unit: a key before any longer
 * one it starts), then each number zero-padded to WIDTH. Null when a location does not fit
 * that: a key holding a NUL, a number not a safe non-negative integer.
 */
function locKey(l: Target & Range): string | null {
  const key = targetKey(l);
  if (key.includes("\0")) return null;
  let out = `${targetRank(l)}${key}\0`;
  for (const n of [l.line, l.column, l.end_line, l.end_column]) {
    if (!Number.isSafeInteger(n) || n < 0) return null;
    out += String(n).padStart(WIDTH, "0");
  }
  return out;
}

/**
 * `locs` in compareLoc's order without duplicates (locations equal in every field it
 * compares). Sorted by locKey and the item's index (a stable sort, as Array.sort is) with
 * the runtime's own string order: a comparator called from the interpreter for each of the
 * ~n log n comparisons of a 600-reference answer cost more than the keys.
 */
export function sortedUniqueLocs<T extends Target & Range>(locs: readonly T[]): T[] {
  const keyed: string[] = [];
  for (let i = 0; i < locs.length; i++) {
    const key = locKey(locs[i] as T);
    if (key === null) return withoutAdjacentDuplicates(locs.slice().sort(compareLoc), compareLoc);
    keyed.push(`${key}${String(i).padStart(WIDTH, "0")}`);
  }
  keyed.sort();
  const out: T[] = [];
  let last: string | undefined;
  for (const k of keyed) {
    const key = k.slice(0, k.length - WIDTH);
    if (key === last) continue;
    last = key;
    out.push(locs[Number(k.slice(k.length - WIDTH))] as T);
  }
  return out;
}

const SEVERITY_RANK: Record<SeverityName, number> = {
  error: 0,
  warning: 1,
  information: 2,
  hint: 3,
};

/** Diagnostics: file, range, severity (error first), code, source, message (SPEC §4.3). */
export function compareDiagnostic(a: DiagnosticOut, b: DiagnosticOut): number {
  return (
    compareDiagnosticFields(a, b) || compareStrings(a.channels.join(","), b.channels.join(","))
  );
}

/** compareDiagnostic without the channels: 0 for the same diagnostic from two channels. */
export function compareDiagnosticFields(a: DiagnosticOut, b: DiagnosticOut): number {
  return (
    compareLoc(a, b) ||
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    compareOptionalStrings(a.code, b.code) ||
    compareOptionalStrings(a.source, b.source) ||
    compareStrings(a.message, b.message) ||
    compareRelated(a.related, b.related)
  );
}

/** Notes by their canonical JSON; only read when everything before them ties. */
function compareRelated(a: readonly unknown[] | undefined, b: readonly unknown[] | undefined) {
  if (a === undefined && b === undefined) return 0;
  return compareStrings(canonicalJson(a ?? []), canonicalJson(b ?? []));
}

/** Document symbols among siblings: by position, then name, kind, detail. */
export function compareSymbolNode(a: SymbolNode, b: SymbolNode): number {
  return (
    compareRange(a.range, b.range) ||
    compareRange(a.selection, b.selection) ||
    compareStrings(a.name, b.name) ||
    compareStrings(a.kind, b.kind) ||
    compareOptionalStrings(a.detail, b.detail) ||
    compareStrings(canonicalJson(a), canonicalJson(b))
  );
}

/**
 * `symbols` in compareWorkspaceSymbol's order without duplicates (symbols equal in every
 * field it compares), the first of equal ones kept.
 */
export function sortedUniqueWorkspaceSymbols<T extends WorkspaceSymbolOut>(
  symbols: readonly T[],
): T[] {
  return withoutAdjacentDuplicates(
    symbols.slice().sort(compareWorkspaceSymbol),
    compareWorkspaceSymbol,
  );
}

function rangeOf(s: WorkspaceSymbolOut): Range | undefined {
  return "line" in s ? s : undefined;
}

/** Workspace symbols: file/uri, position (range-less first), name, kind, container. */
export function compareWorkspaceSymbol(a: WorkspaceSymbolOut, b: WorkspaceSymbolOut): number {
  const ra = rangeOf(a);
  const rb = rangeOf(b);
  return (
    compareTarget(a, b) ||
    (ra && rb ? compareRange(ra, rb) : ra ? 1 : rb ? -1 : 0) ||
    compareStrings(a.name, b.name) ||
    compareStrings(a.kind, b.kind) ||
    compareOptionalStrings(a.container, b.container) ||
    compareStrings(canonicalJson(a), canonicalJson(b))
  );
}
