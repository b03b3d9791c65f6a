/**
 * TypeScript 7's native server through the compiled bridge (preset typescript-native):
 * ready after a warm-up open (no other condition), navigation answers equal to typescript-language-server's on
 * the same fixture (test/fixtures/README.md), and diagnostics that are complete on the
 * FIRST call of every fresh session — it answers only by pull, so the pull response is
 * the whole set (the contrast to typescript-language-server's per-kind pushes, SPEC §6).
 */
import { describe, expect, test } from "bun:test";
import {
  fails,
  ok,
  range,
  realSuite,
  requiredUnderCI,
  startRealBridge,
} from "../support/real-bridge.ts";
import { findTypescriptNative } from "../support/real-servers.ts";
import { lastThroughZeroConfig } from "../support/zero-config-bridge.ts";

const tsgo = await findTypescriptNative();

// the repo's own typescript 7
requiredUnderCI("typescript-native", tsgo, (t) => expect(t.version).toStartWith("Version 7."));

const suite = realSuite("typescript-native", tsgo);

const ERRORS_TS = [
  {
    file: "src/errors.ts",
    ...range(3, 14, 3, 19),
    severity: "error",
    code: "2322",
    source: "ts",
    message: "Type 'string' is not assignable to type 'number'.",
    channels: ["pull"],
  },
  {
    file: "src/errors.ts",
    ...range(4, 57, 4, 60),
    severity: "error",
    code: "2345",
    source: "ts",
    message: "Argument of type 'string' is not assignable to parameter of type 'number'.",
    channels: ["pull"],
  },
];

describe.skipIf(!tsgo)("typescript-native on the ts fixture", () => {
  test("diagnostics are complete on the first call of each of three fresh sessions, the last through zero-config", async () => {
    if (!tsgo) return;
    for (let i = 0; i < 3; i++) {
      // the last through zero-config, the path users run (SPEC §2.1)
      const bridge = await lastThroughZeroConfig(i, 3, suite.fixture("ts"), tsgo);
      const r = await ok(bridge, "diagnostics", { file: "src/errors.ts" });
      expect(r.diagnostics).toEqual(ERRORS_TS);
      expect(r.total).toBe(2);
      await bridge.close();
    }
  });

  test("definition, hover and references on the emoji line (UTF-8 server, code-point columns)", async () => {
    const bridge = await startRealBridge(suite.fixture("ts"), suite.config());
    const status = await ok(bridge, "session_status", { start: true });
    const entry = (status.sessions as Record<string, unknown>[])[0];
    expect(entry?.state).toBe("ready");
    expect(entry?.position_encoding).toBe("utf-8");
    const at = { file: "src/main.ts", line: 4, symbol: "totalArea" };
    expect(await ok(bridge, "definition", at)).toEqual({
      locations: [{ file: "src/shape.ts", ...range(14, 17, 14, 26) }],
      total: 1,
    });
    const hover = await ok(bridge, "hover", at);
    expect(hover.text).toContain("totalArea(shapes: readonly Shape[]): number");
    expect(hover.range).toEqual(range(4, 35, 4, 44));
    const refs = await ok(bridge, "references", at);
    expect(refs.total).toBe(5);
    const declaration = await fails(bridge, "declaration", at);
    expect(declaration.code).toBe("ServerLacksCapability");
    await bridge.close();
  });
});
