/**
 * A diagnostics answer in memory proportional to what it can return (SPEC §6.1, §8.2):
 * the reports are put in canonical order without copying an item; each item is measured
 * once — its JSON size, its share of the snapshot id — in time slices; a snapshot keeps
 * the items and the digest of the text under each, never their keys. The answer is
 * serialized only when it fits (cap.ts), so a result too large costs its sizes alone.
 */
import type { TimeSlices } from "../time-slice.ts";
import { canonicalJson, enforceSizedCap, utf8Length } from "./cap.ts";
import {
  DIGEST_BYTES,
  diffDiagnostics,
  fileOf,
  type KeyedDiagnostics,
  keyAt,
  SnapshotDigest,
  writeTextDigest,
} from "./diagnostics-diff.ts";
import { compareDiagnostic, compareTarget } from "./order.ts";
import { type Paging, page } from "./paging.ts";
import { limitForSizes, summarizeFiles } from "./too-large.ts";
import type { DiagnosticOut, Target } from "./types.ts";

/**
 * One report's diagnostics (one file of one server), in canonical order, and the digest of
 * the text under each (DIGEST_BYTES at `DIGEST_BYTES * i`).
 */
export interface ReportItems extends KeyedDiagnostics {
  target: Target;
  items: DiagnosticOut[];
}

/** Every report's items in canonical order, with their text digests. */
export interface OrderedItems extends KeyedDiagnostics {
  items: DiagnosticOut[];
}

/** The text digest of each item, written as `textUnder` gives its text. */
export async function textDigests(
  items: readonly DiagnosticOut[],
  textOf: (item: DiagnosticOut) => string,
  slices: TimeSlices,
): Promise<Buffer> {
  const texts = Buffer.alloc(items.length * DIGEST_BYTES);
  await slices.each(items.length, (i) => {
    writeTextDigest(textOf(items[i] as DiagnosticOut), texts, i * DIGEST_BYTES);
  });
  return texts;
}

/**
 * The reports' items in canonical order (compareDiagnostic, ties in report order): each
 * report is in order already, so reports are ordered by file and only the items of one
 * file reported more than once (by two servers) are sorted.
 */
export async function canonicalOrder(
  reports: readonly ReportItems[],
  slices: TimeSlices,
): Promise<OrderedItems> {
  const sorted = reports
    .filter((r) => r.items.length > 0)
    .sort((a, b) => compareTarget(a.target, b.target));
  if (sorted.length === 1) return sorted[0] as ReportItems;
  const total = sorted.reduce((n, r) => n + r.items.length, 0);
  const out: OrderedItems = { items: [], texts: Buffer.alloc(total * DIGEST_BYTES) };
  let group: ReportItems[] = [];
  for (const report of sorted) {
    const last = group[group.length - 1];
    if (last !== undefined && compareTarget(last.target, report.target) !== 0) {
      await append(group, out, slices);
      group = [];
    }
    group.push(report);
  }
  await append(group, out, slices);
  return out;
}

/** The items of the reports on one file appended to `out`, merged in canonical order. */
async function append(group: readonly ReportItems[], out: OrderedItems, slices: TimeSlices) {
  const [only] = group;
  if (group.length === 1 && only !== undefined) {
    only.texts.copy(out.texts, out.items.length * DIGEST_BYTES);
    for (const item of only.items) out.items.push(item);
    return;
  }
  const refs: { report: ReportItems; i: number }[] = [];
  for (const report of group) {
    for (let i = 0; i < report.items.length; i++) refs.push({ report, i });
  }
  const itemOf = (r: { report: ReportItems; i: number }) => r.report.items[r.i] as DiagnosticOut;
  // stable: equal items keep their report order
  for (const ref of await slices.sort(refs, (a, b) => compareDiagnostic(itemOf(a), itemOf(b)))) {
    const at = ref.i * DIGEST_BYTES;
    ref.report.texts.copy(out.texts, out.items.length * DIGEST_BYTES, at, at + DIGEST_BYTES);
    out.items.push(itemOf(ref));
  }
}

/** What one pass over an answer's items gives. */
export interface Measured {
  /** the snapshot id (diagnostics-diff.ts) */
  snapshot: string;
  /** the items measured: what the snapshot keeps */
  keyed: KeyedDiagnostics;
  /** each item's canonical JSON, in UTF-8 bytes */
  sizes: Uint32Array;
  /** all of them */
  bytes: number;
}

/** The one pass: each item serialized and keyed once, then let go. */
export async function measureDiagnostics(
  files: readonly string[],
  complete: boolean | undefined,
  ordered: KeyedDiagnostics,
  slices: TimeSlices,
): Promise<Measured> {
  const digest = new SnapshotDigest(files, complete);
  const sizes = new Uint32Array(ordered.items.length);
  let bytes = 0;
  await slices.each(ordered.items.length, (i) => {
    const json = canonicalJson(ordered.items[i]);
    sizes[i] = utf8Length(json);
    bytes += sizes[i] as number;
    digest.add(json, keyAt(ordered, i));
  });
  return { snapshot: digest.id(), keyed: ordered, sizes, bytes };
}

/** The summed JSON sizes of `items` at `indices`: `sizes` where measured, else measured now. */
async function sizeOf(
  items: readonly DiagnosticOut[],
  indices: readonly number[],
  sizes: Uint32Array | undefined,
  slices: TimeSlices,
): Promise<number> {
  let bytes = 0;
  await slices.each(indices.length, (n) => {
    const i = indices[n] as number;
    bytes += sizes ? (sizes[i] as number) : utf8Length(canonicalJson(items[i]));
  });
  return bytes;
}

/** How many of `items` each file has (ResultTooLarge's summary). */
function countsByFile(...lists: (readonly DiagnosticOut[])[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const items of lists) {
    for (const item of items) counts.set(fileOf(item), (counts.get(fileOf(item)) ?? 0) + 1);
  }
  return counts;
}

/** A tool's answer: the result, its item count, its JSON (measured: within the cap). */
export interface SizedAnswer {
  result: Record<string, unknown>;
  count: number;
  json: string;
}

/** The result size cap and the largest page (bridge.max_result_bytes, bridge.max_limit). */
export interface Caps {
  maxBytes: number;
  maxLimit: number;
}

/**
 * One page of the answer (`fields`: the rest of the result, in order), measured by the
 * sizes of its items (SPEC §4.4): serialized only when it fits, else ResultTooLarge with a
 * limit that fits and a summary per file — as the cap says of any paged list.
 */
export function pagedAnswer(
  m: Measured,
  fields: Record<string, unknown>,
  paging: Paging,
  caps: Caps,
): SizedAnswer {
  const { items } = m.keyed;
  const p = page(items as DiagnosticOut[], paging);
  const result: Record<string, unknown> = { diagnostics: [], total: p.total };
  if (p.next_offset !== undefined) result.next_offset = p.next_offset;
  Object.assign(result, fields);
  const from = Math.min(paging.offset, items.length);
  const bytes = m.sizes.subarray(from, from + p.items.length).reduce((a, b) => a + b, 0);
  const list = { key: "diagnostics", items: p.items, bytes };
  const json = enforceSizedCap(result, [list], p.items.length, caps.maxBytes, () => {
    const { next_offset: _, ...head } = result;
    const rest = m.sizes.subarray(paging.offset);
    return {
      limit: limitForSizes(
        utf8Length(canonicalJson(head)),
        rest,
        paging.offset,
        caps.maxBytes,
        caps.maxLimit,
      ),
      offset: paging.offset,
      summary: summarizeFiles(countsByFile(items)),
      hint: undefined,
    };
  });
  return { result, count: p.items.length, json };
}

/**
 * What changed since `before` (SPEC §6.1), measured as a page is; not paged. `whole`: the
 * current items too, as `diagnostics` (a preview's answer, SPEC §6.2).
 */
export async function sinceAnswer(
  before: KeyedDiagnostics,
  m: Measured,
  fields: Record<string, unknown>,
  inScope: (file: string) => boolean,
  maxBytes: number,
  slices: TimeSlices,
  whole = false,
): Promise<SizedAnswer> {
  const diff = await diffDiagnostics(before, m.keyed, inScope, slices);
  const added = diff.added.map((i) => m.keyed.items[i] as DiagnosticOut);
  const removed = diff.removed.map((i) => before.items[i] as DiagnosticOut);
  const lists = [
    { key: "added", items: added, bytes: await sizeOf(m.keyed.items, diff.added, m.sizes, slices) },
    {
      key: "removed",
      items: removed,
      bytes: await sizeOf(before.items, diff.removed, undefined, slices),
    },
  ];
  const all = m.keyed.items as DiagnosticOut[];
  if (whole) lists.unshift({ key: "diagnostics", items: all, bytes: m.bytes });
  const head = whole ? { diagnostics: [], total: all.length } : {};
  const result = { ...head, added: [], removed: [], unchanged: diff.unchanged, ...fields };
  const count = added.length + removed.length + (whole ? all.length : 0);
  const json = enforceSizedCap(result, lists, count, maxBytes, () => ({
    limit: undefined,
    offset: 0,
    summary: summarizeFiles(countsByFile(added, removed, whole ? all : [])),
    hint: undefined,
  }));
  return { result, count, json };
}
