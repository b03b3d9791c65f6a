/**
 * definition / declaration / type_definition / implementation / references results →
 * `Loc[]` (SPEC §4.3): Location and LocationLink alike, deduplicated, canonical order.
 */

import type { Location, LocationLink } from "vscode-languageserver-protocol";
import { sortedUniqueLocs } from "./order.ts";
import { isLspRange } from "./range-converter.ts";
import type { Loc, NormalizeContext, Target } from "./types.ts";

export type LocationResult = Location | Location[] | LocationLink[] | null | undefined;

export function normalizeLocations(result: LocationResult, ctx: NormalizeContext): Loc[] {
  if (result === null || result === undefined) return [];
  const items: unknown[] = Array.isArray(result) ? result : [result];
  const locs: Loc[] = [];
  for (const item of items) {
    const loc = toLoc(item, ctx);
    if (loc !== undefined) locs.push(loc);
  }
  return sortedUniqueLocs(locs);
}

/** One Location or LocationLink; malformed server items are dropped. */
function toLoc(item: unknown, ctx: NormalizeContext): Loc | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  if ("targetUri" in item) {
    const link = item as LocationLink;
    // targetSelectionRange is the span an editor jumps to (the name), targetRange the
    // whole construct; a location answers "where", so the selection is used.
    const range = isLspRange(link.targetSelectionRange)
      ? link.targetSelectionRange
      : link.targetRange;
    if (typeof link.targetUri !== "string" || !isLspRange(range)) return undefined;
    return ctx.toLoc(link.targetUri, range);
  }
  const loc = item as Location;
  if (typeof loc.uri !== "string" || !isLspRange(loc.range)) return undefined;
  return ctx.toLoc(loc.uri, loc.range);
}

/**
 * Items whose file no longer exists dropped (SPEC §4.3): a server answering from an index
 * older than the disk can name a moved or deleted file. `exists` is the caller's look at a
 * workspace-relative or absolute path; non-file URIs are kept.
 */
export function withoutVanished<T extends Target>(
  items: readonly T[],
  exists: (file: string) => boolean,
): { kept: T[]; vanished: number } {
  const known = new Map<string, boolean>();
  const kept: T[] = [];
  // a file's items usually lie side by side (canonical order): the last answer stands
  let last: string | undefined;
  let lastThere = true;
  for (const item of items) {
    if (!("file" in item)) {
      kept.push(item);
      continue;
    }
    if (item.file !== last) {
      let there = known.get(item.file);
      if (there === undefined) {
        there = exists(item.file);
        known.set(item.file, there);
      }
      last = item.file;
      lastThere = there;
    }
    if (lastThere) kept.push(item);
  }
  return { kept, vanished: items.length - kept.length };
}
