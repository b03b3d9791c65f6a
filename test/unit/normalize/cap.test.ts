/** SPEC §4.4: the size cap on a serialized result. */
import { describe, expect, test } from "bun:test";
import { canonicalJson, enforceSizeCap } from "../../../src/normalize/cap.ts";
import { page } from "../../../src/normalize/paging.ts";
import { thrown } from "../../support/thrown.ts";

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

  test("a paged list: the hint's limit is within max_limit and every page of it fits", () => {
    const items = Array.from({ length: 100 }, (_, i) => ({ file: `f${i % 3}.ts`, n: i }));
    const many = { items, total: 100 };
    const err = thrown(() =>
      enforceSizeCap(many, 100, 200, {
        pages: { key: "items", items, offset: 0 },
        maxLimit: 50,
      }),
    );
    const limit = err.details?.limit as number;
    expect(err.hint).toContain(`limit=${limit}`);
    expect(limit).toBeGreaterThanOrEqual(1);
    expect(limit).toBeLessThanOrEqual(50);
    const largestPage = (size: number): number => {
      let largest = 0;
      for (let offset = 0; offset < 100; offset += size) {
        const p = page(items, { limit: size, offset });
        const json = canonicalJson({ items: p.items, total: p.total, next_offset: p.next_offset });
        largest = Math.max(largest, Buffer.byteLength(json));
      }
      return largest;
    };
    expect(largestPage(limit)).toBeLessThanOrEqual(200);
    // the largest such limit: one more per page does not fit somewhere
    expect(largestPage(limit + 1)).toBeGreaterThan(200);
    expect(err.details?.by_file).toEqual([
      { file: "f0.ts", count: 34 },
      { file: "f1.ts", count: 33 },
      { file: "f2.ts", count: 33 },
    ]);
    expect(err.details?.files).toBe(3);
  });

  test("a tool that does not page: no limit in the hint, a summary if it has one", () => {
    const result = { text: "x".repeat(300) };
    const err = thrown(() => enforceSizeCap(result, 1, 100, { maxLimit: 200 }));
    expect(err.hint).not.toContain("limit=");
    expect(err.details).toEqual({ count: 1, bytes: 311, max_bytes: 100 });
  });
});
