/**
 * The apply tools at their bounds (SPEC §4.4, §7), through the compiled bridge against
 * the fake server: an answer too large to give is refused before anything is written.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bridgeFor, FakeProbe, lspRange, workspace } from "../fake-server/harness.ts";
import { type BridgeHandle, cleanupTempDirs, closeAllBridges } from "../support/bridge.ts";

const GATED = { mutation: "gated", mutation_allowlist: ["ci-gate"] };

afterAll(async () => {
  await closeAllBridges();
  cleanupTempDirs();
});

describe("a rename whose answer is over max_result_bytes", () => {
  const ws = workspace();
  const MANY = `${"beta ".repeat(30)}\n`;
  ws.write("many.fake", MANY);
  ws.write("two.fake", "beta beta\n");
  const fake = new FakeProbe("fake");
  const servers = [
    fake.server({
      capabilities: { textDocumentSync: 1, renameProvider: true },
      rename_edit: {
        changes: {
          [ws.uri("many.fake")]: Array.from({ length: 30 }, (_, i) => ({
            range: lspRange(0, 5 * i, 5 * i + 4),
            newText: "delta",
          })),
          [ws.uri("two.fake")]: [
            { range: lspRange(0, 0, 4), newText: "delta" },
            { range: lspRange(0, 5, 9), newText: "delta" },
          ],
        },
      },
    }),
  ];
  let bridge: BridgeHandle;
  beforeAll(async () => {
    ({ bridge } = await bridgeFor({
      ws,
      servers,
      bridge: { ...GATED, max_result_bytes: 1024 },
      clientName: "ci-gate",
    }));
  });

  test("rename_apply is ResultTooLarge like rename_preview, counted in edits, and writes nothing", async () => {
    const args = { file: "many.fake", line: 1, column: 1, new_name: "delta" };
    const preview = await bridge.call("rename_preview", args);
    const applied = await bridge.call("rename_apply", args);
    for (const r of [preview, applied]) {
      expect(r.structured.code).toBe("ResultTooLarge");
      const details = r.structured.details as Record<string, unknown>;
      expect(details.count).toBe(32);
      expect(details.files).toBe(2);
      expect(details.by_file).toEqual([
        { file: "many.fake", count: 30 },
        { file: "two.fake", count: 2 },
      ]);
    }
    expect(String(applied.structured.hint)).toContain("nothing was written");
    expect(ws.read("many.fake")).toBe(MANY);
    expect(ws.read("two.fake")).toBe("beta beta\n");
  });
});
