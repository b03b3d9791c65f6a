/**
 * The result size cap (SPEC §4.4; issue 5): a result over max_result_bytes is
 * ResultTooLarge with the real item count and byte size, never truncated;
 * paging with `limit` gets the items.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bridgeFor, FakeProbe, workspace } from "../fake-server/harness.ts";
import { type BridgeHandle, cleanupTempDirs, closeAllBridges } from "../support/bridge.ts";

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
    bridge: { max_result_bytes: 1024 },
    servers: [
      fake.server({
        huge: { "textDocument/references": 500, "textDocument/documentSymbol": 300 },
      }),
    ],
  }));
});
afterAll(async () => {
  await closeAllBridges();
  cleanupTempDirs();
});

/** What the fake generates for references: line i, characters 0..5. */
function location(i: number) {
  return { file: "big.fake", line: i + 1, column: 1, end_line: i + 1, end_column: 6 };
}

describe("max_result_bytes", () => {
  test("over the cap: ResultTooLarge with {count, bytes, max_bytes} and a paging hint", async () => {
    const r = await bridge.call("references", { file: "big.fake", line: 1, column: 1 });
    expect(r.isError).toBe(true);
    expect(r.structured.code).toBe("ResultTooLarge");
    const full = { locations: Array.from({ length: 500 }, (_, i) => location(i)), total: 500 };
    expect(r.structured.details).toEqual({
      count: 500,
      bytes: Buffer.byteLength(JSON.stringify(full)),
      max_bytes: 1024,
    });
    expect(String(r.structured.hint)).toContain("limit");
  });

  test("document_symbols over the cap too; a page under the cap is answered", async () => {
    const r = await bridge.call("document_symbols", { file: "big.fake" });
    expect(r.structured.code).toBe("ResultTooLarge");
    expect((r.structured.details as { count: number }).count).toBe(300);
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
