import { describe, expect, test } from "bun:test";
import { BridgeError } from "../../src/errors.ts";
import { canonicalJson, enforceSizeCap } from "../../src/normalize/cap.ts";
import { page } from "../../src/normalize/paging.ts";

function thrown(fn: () => unknown): BridgeError {
  try {
    fn();
  } catch (err) {
    if (err instanceof BridgeError) return err;
    throw err;
  }
  throw new Error("expected a BridgeError");
}

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

describe("enforceSizeCap", () => {
  const result = { locations: [{ file: "é.ts", line: 1 }], total: 1 };
  const json = '{"locations":[{"file":"é.ts","line":1}],"total":1}';
  // é is two UTF-8 bytes: the byte count is one more than the string length
  const bytes = json.length + 1;

  test("canonical JSON has no whitespace and keeps construction order", () => {
    expect(canonicalJson(result)).toBe(json);
    expect(canonicalJson({ b: 1, a: undefined, c: [2] })).toBe('{"b":1,"c":[2]}');
  });

  test("exactly at the cap passes and returns the JSON", () => {
    expect(enforceSizeCap(result, 1, bytes)).toBe(json);
  });

  test("one byte over fails with the real count and size", () => {
    const err = thrown(() => enforceSizeCap(result, 1, bytes - 1));
    expect(err.code).toBe("ResultTooLarge");
    expect(err.details).toEqual({ count: 1, bytes, max_bytes: bytes - 1 });
  });

  test("the hint points at paging when there are several items", () => {
    const many = { items: Array.from({ length: 100 }, (_, i) => ({ n: i })), total: 100 };
    const err = thrown(() => enforceSizeCap(many, 100, 200));
    expect(err.hint).toContain("limit");
    expect(err.details?.count).toBe(100);
  });
});
