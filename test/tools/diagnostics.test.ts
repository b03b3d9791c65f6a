/**
 * Diagnostics settle by state (SPEC §6; issue 5): after a file changed, the
 * answer waits for the publish that belongs to the synced content — by its
 * version, or (for servers whose pushes carry none) by the next publish —
 * so a stale set is never returned; without `file`, everything accumulated.
 * The fake publishes one diagnostic per "TODO", late on purpose.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { bridgeFor, FakeProbe, workspace } from "../fake-server/harness.ts";
import { cleanupTempDirs, closeAllBridges } from "../support/bridge.ts";

afterEach(closeAllBridges);
afterAll(cleanupTempDirs);

const TODO = { pattern: "TODO", message: "unfinished", severity: 2 };

function todo(file: string, line: number, column: number) {
  return {
    file,
    line,
    column,
    end_line: line,
    end_column: column + 4,
    severity: "warning",
    message: "unfinished",
    channels: ["push"],
  };
}

describe("settling after a change", () => {
  const rules: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ["version: the publish carrying the synced version", {}, {}],
    [
      "publish: the next publish, for pushes without a version",
      { publish_version: false },
      { diagnostics_settle: "publish" },
    ],
  ];
  for (const [label, scenario, extra] of rules) {
    test(label, async () => {
      const ws = workspace({ "a.fake": "TODO one\n", "b.fake": "fine\n" });
      const fake = new FakeProbe("fake");
      const { bridge } = await bridgeFor({
        ws,
        servers: [
          fake.server({ publish_matches: TODO, publish_delay_ms: 300, ...scenario }, extra),
        ],
      });
      const first = await bridge.call("diagnostics", { file: "a.fake" });
      expect(first.structured).toEqual({ diagnostics: [todo("a.fake", 1, 1)], total: 1 });

      ws.write("a.fake", "x TODO TODO\n");
      const second = await bridge.call("diagnostics", { file: "a.fake" });
      expect(second.structured).toEqual({
        diagnostics: [todo("a.fake", 1, 3), todo("a.fake", 1, 8)],
        total: 2,
      });
      const versions = fake
        .events("textDocument/publishDiagnostics", "out")
        .map((e) => (e.detail as { version: number | null }).version);
      expect(versions).toEqual(scenario.publish_version === false ? [null, null] : [1, 2]);

      ws.write("b.fake", "TODO\n");
      expect((await bridge.call("diagnostics", { file: "b.fake" })).structured.total).toBe(1);
      const all = await bridge.call("diagnostics", {});
      expect(all.structured).toEqual({
        diagnostics: [todo("a.fake", 1, 3), todo("a.fake", 1, 8), todo("b.fake", 1, 1)],
        total: 3,
      });
    });
  }
});
