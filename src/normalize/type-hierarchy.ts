/**
 * type_hierarchy results (SPEC §4.3): a TypeHierarchyItem has the shape of a
 * CallHierarchyItem (name, kind, uri, range, selectionRange) and becomes the same
 * `{name, kind, file, line, column, end_line, end_column}` at its selection range (its
 * name, so the next call can start there). Canonical order, each type once; servers are
 * untrusted, malformed entries are dropped.
 */
import type { TypeHierarchyItem } from "vscode-languageserver-protocol";
import {
  type CallItemOut,
  compareCallItem,
  normalizeCallItem,
  pickCallItem,
} from "./call-hierarchy.ts";
import { canonicalJson } from "./json.ts";
import type { NormalizeContext } from "./types.ts";

export type TypeItemOut = CallItemOut;

/** The first well-formed item of a prepareTypeHierarchy answer, in canonical order. */
export function pickTypeItem(
  items: unknown,
  ctx: NormalizeContext,
): { raw: TypeHierarchyItem; out: TypeItemOut } | undefined {
  const picked = pickCallItem(items, ctx);
  // the same fields: what came is handed back to the server as it came
  return picked && { raw: picked.raw as unknown as TypeHierarchyItem, out: picked.out };
}

/** A supertypes or subtypes answer: each type once, in canonical order. */
export function normalizeTypes(items: unknown, ctx: NormalizeContext): TypeItemOut[] {
  if (!Array.isArray(items)) return [];
  const byKey = new Map<string, TypeItemOut>();
  for (const raw of items as unknown[]) {
    const out = normalizeCallItem(raw, ctx);
    if (out) byKey.set(canonicalJson(out), out);
  }
  return [...byKey.values()].sort(compareCallItem);
}
