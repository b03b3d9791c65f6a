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

const SLASH = 0x2f;

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

/** `locs` in compareLoc's order without duplicates (locations equal in every field it compares). */
export function sortedUniqueLocs<T extends Target & Range>(locs: readonly T[]): T[] {
  return sortedUniqueByTarget(locs, compareRange);
}

/**
 * `items` by target (compareTarget), then `compareInTarget`, without duplicates (items equal
 * in both), the first of equal ones kept. Grouped by target first: a reference list names a
 * few hundred files a few times each, so each target's key is sorted once, by the runtime's
 * own code-unit order (the order compareStrings keeps), and only a target's few items by a
 * comparator.
 */
function sortedUniqueByTarget<T extends Target>(
  items: readonly T[],
  compareInTarget: (a: T, b: T) => number,
): T[] {
  // by targetRank: workspace files, files outside, non-file URIs
  const ranks = [new Map<string, T[]>(), new Map<string, T[]>(), new Map<string, T[]>()];
  for (const item of items) {
    // targetRank and targetKey, inline: this runs per item
    const file = "file" in item ? item.file : undefined;
    const groups = ranks[file === undefined ? 2 : file.charCodeAt(0) === SLASH ? 1 : 0];
    const key = file ?? (item as { uri: string }).uri;
    const group = groups?.get(key);
    if (group === undefined) groups?.set(key, [item]);
    else group.push(item);
  }
  const out: T[] = [];
  for (const groups of ranks) {
    for (const key of Array.from(groups.keys()).sort()) {
      const group = groups.get(key) as T[];
      // most files of a reference list are named once: nothing to order or drop
      if (group.length === 1) {
        out.push(group[0] as T);
        continue;
      }
      group.sort(compareInTarget);
      for (const item of withoutAdjacentDuplicates(group, compareInTarget)) out.push(item);
    }
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
  return sortedUniqueByTarget(symbols, compareWorkspaceSymbolInTarget);
}

function rangeOf(s: WorkspaceSymbolOut): Range | undefined {
  return "line" in s ? s : undefined;
}

/** Workspace symbols: file/uri, position (range-less first), name, kind, container. */
export function compareWorkspaceSymbol(a: WorkspaceSymbolOut, b: WorkspaceSymbolOut): number {
  return compareTarget(a, b) || compareWorkspaceSymbolInTarget(a, b);
}

/** compareWorkspaceSymbol of two symbols of one target. */
function compareWorkspaceSymbolInTarget(a: WorkspaceSymbolOut, b: WorkspaceSymbolOut): number {
  const ra = rangeOf(a);
  const rb = rangeOf(b);
  return (
    (ra && rb ? compareRange(ra, rb) : ra ? 1 : rb ? -1 : 0) ||
    compareStrings(a.name, b.name) ||
    compareStrings(a.kind, b.kind) ||
    compareOptionalStrings(a.container, b.container) ||
    compareStrings(canonicalJson(a), canonicalJson(b))
  );
}
