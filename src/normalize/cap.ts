/** The result size cap (SPEC §4.4): measured on the canonical serialization (json.ts). */

import { BridgeError } from "../errors.ts";
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
  const hint =
    limit !== undefined
      ? `page with limit=${limit} and offset=${help.pages?.offset ?? 0} (every page of that size fits), or narrow the request`
      : (help.hint ??
        "narrow the request (another file, position or query); max_result_bytes bounds every result");
  throw new BridgeError(
    "ResultTooLarge",
    `result is ${bytes} bytes (${count} items), over the ${maxBytes}-byte limit`,
    {
      hint,
      details: {
        count,
        bytes,
        max_bytes: maxBytes,
        ...(limit !== undefined ? { limit } : {}),
        ...summary,
      },
    },
  );
}
