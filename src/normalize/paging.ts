/**
 * Explicit paging of list results (SPEC §4.2 `limit`/`offset`, §4.3 `total`/`next_offset`).
 * The caller pages over the canonical order, so pages are stable across calls.
 */

export interface Page<T> {
  items: T[];
  total: number;
  next_offset?: number;
}

/** A page asked for, its bounds checked (mcp/conventions.ts): `limit` ≥ 1 or absent, `offset` ≥ 0. */
export interface Paging {
  limit: number | undefined;
  offset: number;
}

/**
 * One page. `limit` absent → everything from `offset`. An offset past the end gives no
 * items (not an error). `next_offset` only when more items remain. The bounds were
 * checked before the server was asked.
 */
export function page<T>(items: T[], { limit, offset }: Paging): Page<T> {
  const to = limit === undefined ? items.length : Math.min(items.length, offset + limit);
  const slice = offset >= items.length ? [] : items.slice(offset, to);
  const result: Page<T> = { items: slice, total: items.length };
  if (offset < items.length && to < items.length) result.next_offset = to;
  return result;
}
