/**
 * call_hierarchy results (SPEC §4.3): a CallHierarchyItem becomes
 * `{name, kind, file, line, column, end_line, end_column}` at its selection
 * range (its name, so the next call can start there); incoming and outgoing
 * calls become one entry per caller or callee with the call `sites`. Canonical
 * order; servers are untrusted, malformed entries are dropped.
 */
import type {
  CallHierarchyIncomingCall,
  CallHierarchyItem,
  CallHierarchyOutgoingCall,
  Range as LspRangeT,
} from "vscode-languageserver-protocol";
import { uriToPath } from "../workspace/uri.ts";
import { canonicalJson } from "./json.ts";
import { compareLoc, compareRange, compareStrings } from "./order.ts";
import { isLspRange } from "./range-converter.ts";
import { symbolKindName } from "./symbols.ts";
import type { Loc, NormalizeContext, Range } from "./types.ts";

export type CallItemOut = { name: string; kind: string } & Loc;
export type CallOut = CallItemOut & { sites: Range[] };

export type CallDirection = "incoming" | "outgoing";

function isItem(x: unknown): x is CallHierarchyItem {
  if (typeof x !== "object" || x === null) return false;
  const i = x as Partial<CallHierarchyItem>;
  return (
    typeof i.name === "string" &&
    typeof i.uri === "string" &&
    (isLspRange(i.selectionRange) || isLspRange(i.range))
  );
}

/**
 * An item at its selection range (its range when the server sent no selection). A module
 * named by its own absolute path (typescript-native names callers at file level so) is
 * named by its result path instead, like every path in a result.
 */
export function normalizeCallItem(item: unknown, ctx: NormalizeContext): CallItemOut | undefined {
  if (!isItem(item)) return undefined;
  const range = (isLspRange(item.selectionRange) ? item.selectionRange : item.range) as LspRangeT;
  const loc = ctx.toLoc(item.uri, range);
  const ownPath = item.name === uriToPath(item.uri) && "file" in loc;
  return { name: ownPath ? loc.file : item.name, kind: symbolKindName(item.kind), ...loc };
}

/** The first well-formed item of a prepareCallHierarchy answer, in canonical order. */
export function pickCallItem(
  items: unknown,
  ctx: NormalizeContext,
): { raw: CallHierarchyItem; out: CallItemOut } | undefined {
  if (!Array.isArray(items)) return undefined;
  const all = items.flatMap((raw) => {
    const out = normalizeCallItem(raw, ctx);
    return out ? [{ raw: raw as CallHierarchyItem, out }] : [];
  });
  all.sort((a, b) => compareCallItem(a.out, b.out));
  return all[0];
}

export function compareCallItem(a: CallItemOut, b: CallItemOut): number {
  return compareLoc(a, b) || compareStrings(a.name, b.name) || compareStrings(a.kind, b.kind);
}

/**
 * Incoming calls: each caller (`from`), its sites in the caller's file. Outgoing calls: each
 * callee (`to`), its sites in the item's file (`itemUri`). The same caller or callee listed
 * twice is one entry with the sites of both; sites are sorted and distinct.
 */
export function normalizeCalls(
  calls: unknown,
  direction: CallDirection,
  itemUri: string,
  ctx: NormalizeContext,
): CallOut[] {
  if (!Array.isArray(calls)) return [];
  const byKey = new Map<string, { entry: CallItemOut; sites: Map<string, Range> }>();
  for (const call of calls as unknown[]) {
    if (typeof call !== "object" || call === null) continue;
    const peer =
      direction === "incoming"
        ? (call as CallHierarchyIncomingCall).from
        : (call as CallHierarchyOutgoingCall).to;
    const entry = normalizeCallItem(peer, ctx);
    if (!entry) continue;
    const sitesUri = direction === "incoming" ? (peer as CallHierarchyItem).uri : itemUri;
    const key = canonicalJson(entry);
    const slot = byKey.get(key) ?? { entry, sites: new Map<string, Range>() };
    const ranges = (call as { fromRanges?: unknown }).fromRanges;
    for (const r of Array.isArray(ranges) ? ranges : []) {
      if (!isLspRange(r)) continue;
      const site = ctx.toRange(sitesUri, r);
      slot.sites.set(canonicalJson(site), site);
    }
    byKey.set(key, slot);
  }
  return [...byKey.values()]
    .map(({ entry, sites }) => ({ ...entry, sites: [...sites.values()].sort(compareRange) }))
    .sort(compareCallItem);
}
