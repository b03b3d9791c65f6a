/**
 * Explicit paging of list results (SPEC §4.2 `limit`/`offset`, §4.3 `total`/`next_offset`).
 * The caller pages over the canonical order, so pages are stable across calls.
 */

import { BridgeError } from "../errors.ts";

export interface Page<T> {
  items: T[];
  total: number;
  next_offset?: number;
}

function badArgument(name: string, value: number, min: number): BridgeError {
  return new BridgeError("InvalidArgument", `\`${name}\` must be an integer >= ${min}`, {
    hint: `pass \`${name}\` as a whole number of at least ${min}, or leave it out`,
    details: { [name]: value },
  });
}

/**
 * One page. `limit` absent → everything from `offset`; `offset` absent → 0. An offset past
 * the end gives no items (not an error). `next_offset` only when more items remain.
 * `limit` 0 is refused: it could never make progress.
 */
export function page<T>(
  items: T[],
  limit: number | undefined,
  offset: number | undefined,
): Page<T> {
  const from = offset ?? 0;
  if (!Number.isInteger(from) || from < 0) throw badArgument("offset", from, 0);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    throw badArgument("limit", limit, 1);
  }
  const to = limit === undefined ? items.length : Math.min(items.length, from + limit);
  const slice = from >= items.length ? [] : items.slice(from, to);
  const result: Page<T> = { items: slice, total: items.length };
  if (from < items.length && to < items.length) result.next_offset = to;
  return result;
}
