/**
 * The result size cap (SPEC §4.4): a result over max_result_bytes is
 * ResultTooLarge with the real item count and byte size, never truncated; the
 * hint's `limit` is valid and every page of it fits; `details` summarizes
 * where the items are; paging with `limit` gets the items.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bridgeFor, FakeProbe, workspace } from "../fake-server/harness.ts";
import { type BridgeHandle, closeBridgesAndTempDirs } from "../support/bridge.ts";

const LINES = 600;
const ws = workspace({
  "big.fake": Array.from({ length: LINES }, (_, i) => `line_${String(i).padStart(4, "0")}`).join(
    "\n",
  ),
});
const fake = new FakeProbe("fake");

let bridge: BridgeHandle;
beforeAll(async () => {
  ({ bridge } = await bridgeFor({
    ws,
    bridge: { max_result_bytes: 1024, max_limit: 12 },
    servers: [
      fake.server({
        huge: { "textDocument/references": 500, "textDocument/documentSymbol": 300 },
      }),
    ],
  }));
});
afterAll(closeBridgesAndTempDirs);

/** What the fake generates for references: line i, characters 0..5. */
function location(i: number) {
  return { file: "big.fake", line: i + 1, column: 1, end_line: i + 1, end_column: 6 };
}

/** Page through a list tool with `limit`, asserting every page is answered within the cap. */
async function pageAll(
  tool: string,
  args: Record<string, unknown>,
  key: string,
  limit: number,
): Promise<unknown[]> {
  const items: unknown[] = [];
  let offset: number | undefined = 0;
  while (offset !== undefined) {
    const r = await bridge.call(tool, { ...args, limit, offset });
    expect(r.isError).toBe(false);
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(1024);
    items.push(...(r.structured[key] as unknown[]));
    offset = r.structured.next_offset as number | undefined;
  }
  return items;
}

describe("max_result_bytes", () => {
  test("over the cap: ResultTooLarge with the real size, a limit that fits and a summary per file", async () => {
    const at = { file: "big.fake", line: 1, column: 1 };
    const r = await bridge.call("references", at);
    expect(r.isError).toBe(true);
    expect(r.structured.code).toBe("ResultTooLarge");
    const full = { locations: Array.from({ length: 500 }, (_, i) => location(i)), total: 500 };
    const limit = (r.structured.details as { limit: number }).limit;
    expect(r.structured.details).toEqual({
      count: 500,
      bytes: Buffer.byteLength(JSON.stringify(full)),
      max_bytes: 1024,
      limit,
      files: 1,
      by_file: [{ file: "big.fake", count: 500 }],
    });
    // valid (≤ max_limit 12, which is smaller than what would fit) and named in the hint
    expect(limit).toBe(12);
    expect(String(r.structured.hint)).toContain(`limit=${limit}`);
    expect(await pageAll("references", at, "locations", limit)).toEqual(full.locations);
  });

  test("document_symbols: the limit counts top-level symbols, summarized by kind", async () => {
    const r = await bridge.call("document_symbols", { file: "big.fake" });
    expect(r.structured.code).toBe("ResultTooLarge");
    const details = r.structured.details as Record<string, unknown>;
    expect(details.count).toBe(300);
    expect(details.by_kind).toEqual([{ kind: "function", count: 300 }]);
    const limit = details.limit as number;
    expect(limit).toBeGreaterThanOrEqual(1);
    expect(limit).toBeLessThanOrEqual(12);
    const symbols = await pageAll("document_symbols", { file: "big.fake" }, "symbols", limit);
    expect(symbols.length).toBe(300);
  });

  test("a limit over max_limit is refused, naming the bound", async () => {
    const r = await bridge.call("references", { file: "big.fake", line: 1, column: 1, limit: 13 });
    expect(r.structured.code).toBe("InvalidArgument");
    expect(r.structured.details).toEqual({ limit: 13, max_limit: 12 });
  });

  test("a page under the cap is answered", async () => {
    const page = await bridge.call("references", {
      file: "big.fake",
      line: 1,
      column: 1,
      limit: 5,
      offset: 20,
    });
    expect(page.isError).toBe(false);
    expect(page.structured).toEqual({
      locations: [20, 21, 22, 23, 24].map(location),
      total: 500,
      next_offset: 25,
    });
    expect(Buffer.byteLength(page.text)).toBeLessThanOrEqual(1024);
  });
});
