/** SPEC §4.2: `limit` and `offset` paging of list results. */
import { describe, expect, test } from "bun:test";
import { page } from "../../../src/normalize/paging.ts";

const ITEMS = ["a", "b", "c", "d", "e"];

describe("page", () => {
  test("no limit: everything, no next_offset", () => {
    expect(page(ITEMS, { limit: undefined, offset: 0 })).toEqual({ items: ITEMS, total: 5 });
    expect(page(ITEMS, { limit: undefined, offset: 3 })).toEqual({ items: ["d", "e"], total: 5 });
  });

  test("next_offset only while more remain", () => {
    expect(page(ITEMS, { limit: 2, offset: 0 })).toEqual({
      items: ["a", "b"],
      total: 5,
      next_offset: 2,
    });
    expect(page(ITEMS, { limit: 2, offset: 2 })).toEqual({
      items: ["c", "d"],
      total: 5,
      next_offset: 4,
    });
    expect(page(ITEMS, { limit: 2, offset: 4 })).toEqual({ items: ["e"], total: 5 });
    expect(page(ITEMS, { limit: 5, offset: 0 })).toEqual({ items: ITEMS, total: 5 });
    expect(page(ITEMS, { limit: 4, offset: 1 })).toEqual({ items: ["b", "c", "d", "e"], total: 5 });
  });

  test("offset at or past the end: empty, not an error", () => {
    expect(page(ITEMS, { limit: 2, offset: 5 })).toEqual({ items: [], total: 5 });
    expect(page(ITEMS, { limit: 2, offset: 50 })).toEqual({ items: [], total: 5 });
    expect(page([], { limit: 10, offset: 0 })).toEqual({ items: [], total: 0 });
  });
});
