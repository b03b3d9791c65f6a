/** The result size cap (SPEC §4.4): measured on the canonical serialization (json.ts). */

import { resultTooLarge, type TooLargeHelp } from "./cap-errors.ts";
import { canonicalJson, utf8Length } from "./json.ts";
import { fittingLimit, type PagedList, summarize } from "./too-large.ts";

export { canonicalJson, utf8Length } from "./json.ts";

/** What a tool knows that helps a caller past ResultTooLarge (too-large.ts). */
export interface CapHelp {
  /** the list `limit` pages, whole, and the call's offset; absent for tools that do not page */
  pages?: PagedList;
  /** items to summarize per file when the tool does not page (rename: one per edit) */
  summaryItems?: readonly unknown[];
  maxLimit: number;
  /** what to do when no `limit` helps (default: narrow the request) */
  hint?: string;
}

/**
 * Serialize a result and measure it against the cap: at most maxBytes UTF-8 bytes passes,
 * anything over is ResultTooLarge with the real item count, a `limit` known to fit (for
 * tools that page) and a summary of where the items are. Never truncates.
 */
export function enforceSizeCap(
  result: Record<string, unknown>,
  count: number,
  maxBytes: number,
  help: CapHelp = { maxLimit: 0 },
): string {
  const json = canonicalJson(result);
  const bytes = utf8Length(json);
  if (bytes <= maxBytes) return json;
  const limit = help.pages && fittingLimit(result, help.pages, maxBytes, help.maxLimit);
  const summary = summarize(help.pages?.items ?? help.summaryItems ?? []);
  throw resultTooLarge(bytes, count, maxBytes, {
    limit,
    offset: help.pages?.offset ?? 0,
    summary,
    hint: help.hint,
  });
}

/** A list of a result whose items' JSON sizes are known: `bytes`, their sum. */
export interface SizedList {
  key: string;
  items: readonly unknown[];
  bytes: number;
}

/**
 * The size of `result` with `lists` in place, without serializing them: `result` holds each
 * empty, at its key's place (canonical JSON adds the items and a comma between each two).
 */
export function sizeWithLists(
  result: Record<string, unknown>,
  lists: readonly SizedList[],
): number {
  let bytes = utf8Length(canonicalJson(result));
  for (const list of lists) bytes += list.bytes + Math.max(0, list.items.length - 1);
  return bytes;
}

/**
 * The cap for a result measured that way: within maxBytes, the lists are put in place and
 * the result serialized (it is small); over it, ResultTooLarge with `help()`, and nothing
 * of the lists was ever serialized whole.
 */
export function enforceSizedCap(
  result: Record<string, unknown>,
  lists: readonly SizedList[],
  count: number,
  maxBytes: number,
  help: () => TooLargeHelp,
): string {
  const bytes = sizeWithLists(result, lists);
  if (bytes > maxBytes) throw resultTooLarge(bytes, count, maxBytes, help());
  for (const list of lists) result[list.key] = list.items;
  return canonicalJson(result);
}
