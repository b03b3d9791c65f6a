/**
 * TypeScript 7's native server through the compiled bridge (preset typescript-native):
 * ready after a warm-up open (no other condition), navigation answers equal to typescript-language-server's on
 * the same fixture (test/fixtures/README.md), and diagnostics that are complete on the
 * FIRST call of every fresh session — it answers only by pull, so the pull response is
 * the whole set (the contrast to typescript-language-server's per-kind pushes, SPEC §6).
 */
import { expect, test } from "bun:test";
import { languageSuite } from "../support/language-suite.ts";
import { diagnosticAt, ok, range } from "../support/real-bridge.ts";
import { findTypescriptNative } from "../support/real-servers.ts";

const tsgo = await findTypescriptNative();

const TOTAL_AREA = { file: "src/main.ts", line: 4, symbol: "totalArea" };
const ERRORS_TS = [
  diagnosticAt("pull", "src/errors.ts", [3, 14, 3, 19], "error", {
    code: "2322",
    source: "ts",
    message: "Type 'string' is not assignable to type 'number'.",
  }),
  diagnosticAt("pull", "src/errors.ts", [4, 57, 4, 60], "error", {
    code: "2345",
    source: "ts",
    message: "Argument of type 'string' is not assignable to parameter of type 'number'.",
  }),
];

languageSuite(
  {
    server: "typescript-native",
    fixture: "ts",
    // the repo's own typescript 7
    installed: (t) => expect(t.version).toStartWith("Version 7."),
    ready: ["warmup_open **/*.{ts,tsx,js,jsx}"],
    // a UTF-8 server: code-point columns on the emoji line
    encoding: "utf-8",
    hover: [
      {
        at: TOTAL_AREA,
        includes: "totalArea(shapes: readonly Shape[]): number",
        range: range(4, 35, 4, 44),
      },
    ],
    references: [
      {
        at: TOTAL_AREA,
        locs: [
          "src/errors.ts 1:18–1:27",
          "src/errors.ts 4:35–4:44",
          "src/main.ts 1:18–1:27",
          "src/main.ts 4:35–4:44",
          "src/shape.ts 14:17–14:26",
        ],
      },
    ],
    lacks: [{ tool: "declaration", args: TOTAL_AREA }],
    // by pull alone: the first answer is the whole set, on this bridge and on the first call
    // of each of three fresh sessions, the last through zero-config
    diagnostics: { file: "src/errors.ts", items: ERRORS_TS, settled: true },
    clean: ["src/main.ts", "src/shape.ts"],
    fresh: { file: "src/errors.ts", items: ERRORS_TS },
  },
  tsgo,
  (bridge) => {
    test("definition on the emoji line: the whole answer", async () => {
      expect(await ok(bridge(), "definition", TOTAL_AREA)).toEqual({
        locations: [{ file: "src/shape.ts", ...range(14, 17, 14, 26) }],
        total: 1,
      });
    });
  },
);
