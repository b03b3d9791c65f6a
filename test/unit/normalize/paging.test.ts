/** SPEC §4.2: `limit` and `offset` paging of list results. */
import { describe, expect, test } from "bun:test";
import { page } from "../../../src/normalize/paging.ts";
import { thrown } from "../../support/thrown.ts";

const ITEMS = ["a", "b", "c", "d", "e"];

describe("page", () => {
  test("no limit: everything, no next_offset", () => {
    expect(page(ITEMS, undefined, undefined)).toEqual({ items: ITEMS, total: 5 });
    expect(page(ITEMS, undefined, 3)).toEqual({ items: ["d", "e"], total: 5 });
  });

  test("next_offset only while more remain", () => {
    expect(page(ITEMS, 2, undefined)).toEqual({ items: ["a", "b"], total: 5, next_offset: 2 });
    expect(page(ITEMS, 2, 2)).toEqual({ items: ["c", "d"], total: 5, next_offset: 4 });
    expect(page(ITEMS, 2, 4)).toEqual({ items: ["e"], total: 5 });
    expect(page(ITEMS, 5, 0)).toEqual({ items: ITEMS, total: 5 });
    expect(page(ITEMS, 4, 1)).toEqual({ items: ["b", "c", "d", "e"], total: 5 });
  });

  test("offset at or past the end: empty, not an error", () => {
    expect(page(ITEMS, 2, 5)).toEqual({ items: [], total: 5 });
    expect(page(ITEMS, 2, 50)).toEqual({ items: [], total: 5 });
    expect(page([], 10, 0)).toEqual({ items: [], total: 0 });
  });

  test("bad limit or offset → InvalidArgument", () => {
    expect(thrown(() => page(ITEMS, 0, 0)).code).toBe("InvalidArgument");
    expect(thrown(() => page(ITEMS, 1.5, 0)).code).toBe("InvalidArgument");
    expect(thrown(() => page(ITEMS, 2, -1)).code).toBe("InvalidArgument");
  });
});
