/**
 * What ResultTooLarge tells the next call (SPEC §4.4): a `limit` that is valid
 * (≤ max_limit, counted in the unit `limit` pages) and known to fit — every
 * page of that size from the call's offset is measured — and a small
 * deterministic summary of where the items are, so a caller can narrow without
 * another round trip.
 */
import { canonicalJson, utf8Length } from "./json.ts";
import { compareStrings } from "./order.ts";

/** The list a tool pages (`limit` counts its items) and the offset of the call. */
export interface PagedList {
  key: string;
  items: readonly unknown[];
  offset: number;
}

/** Groups listed in a summary, largest first. */
export const MAX_SUMMARY_GROUPS = 20;

/**
 * The largest page size ≤ maxLimit for which every page from `offset` (offset, offset+L,
 * …) serializes within maxBytes, or undefined when not even one item fits. A page is
 * `result` with `key` holding the page's items and `next_offset` while more remain —
 * measured exactly, without serializing every candidate page.
 */
export function fittingLimit(
  result: Record<string, unknown>,
  list: PagedList,
  maxBytes: number,
  maxLimit: number,
): number | undefined {
  const rest = list.items.slice(list.offset);
  if (rest.length === 0) return undefined;
  const { next_offset: _, ...head } = result;
  const base = utf8Length(canonicalJson({ ...head, [list.key]: [] }));
  const sizes = rest.map((item) => utf8Length(canonicalJson(item)));
  return limitForSizes(base, sizes, list.offset, maxBytes, maxLimit);
}

/**
 * fittingLimit from what is measured already: `base`, the result's size with the list
 * empty and no `next_offset`; `sizes`, the JSON sizes of the list's items from `offset` on.
 */
export function limitForSizes(
  base: number,
  sizes: ArrayLike<number>,
  offset: number,
  maxBytes: number,
  maxLimit: number,
): number | undefined {
  const n = sizes.length;
  if (n === 0) return undefined;
  // prefix sums of item sizes plus one separating comma each
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = (prefix[i] as number) + (sizes[i] as number) + 1;
  const pageBytes = (from: number, to: number): number => {
    const items = (prefix[to] as number) - (prefix[from] as number) - 1;
    const next = to < n ? `,"next_offset":${offset + to}`.length : 0;
    return base + items + next;
  };
  // Σ n/L over L is n·ln(maxLimit): cheap even for long lists
  for (let limit = Math.min(maxLimit, n); limit >= 1; limit--) {
    let fits = true;
    for (let from = 0; from < n && fits; from += limit) {
      fits = pageBytes(from, Math.min(n, from + limit)) <= maxBytes;
    }
    if (fits) return limit;
  }
  return undefined;
}

/** `[{[field]: value, count}]`, largest first, then by value; at most MAX_SUMMARY_GROUPS. */
export function countBy(values: readonly string[], field: string): Record<string, unknown>[] {
  return largestCounts(countsOf(values), field);
}

/** How many times each value occurs. */
function countsOf(values: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}

function largestCounts(counts: ReadonlyMap<string, number>, field: string) {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || compareStrings(a[0], b[0]))
    .slice(0, MAX_SUMMARY_GROUPS)
    .map(([value, count]) => ({ [field]: value, count }));
}

/** A summary of items by file from their counts per file (`summarize` of items across files). */
export function summarizeFiles(counts: ReadonlyMap<string, number>): Record<string, unknown> {
  if (counts.size === 0) return {};
  return { files: counts.size, by_file: largestCounts(counts, "file") };
}

function stringField(item: unknown, field: string): string | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  const v = (item as Record<string, unknown>)[field];
  return typeof v === "string" ? v : undefined;
}

/**
 * A summary of a list's items: counts per file (`file`, else `uri`) for lists across
 * files, else counts per `kind` (document symbols), else nothing.
 */
export function summarize(items: readonly unknown[]): Record<string, unknown> {
  const files = items.map((i) => stringField(i, "file") ?? stringField(i, "uri"));
  if (files.length > 0 && files.every((f) => f !== undefined)) {
    return summarizeFiles(countsOf(files as string[]));
  }
  const kinds = items.map((i) => stringField(i, "kind"));
  if (kinds.length > 0 && kinds.every((k) => k !== undefined)) {
    return { by_kind: countBy(kinds as string[], "kind") };
  }
  return {};
}
