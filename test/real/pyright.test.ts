/**
 * pyright through the compiled bridge (SPEC §11 real servers): readiness by state (its
 * `Found N source files` log), every tool it offers against the answers measured in
 * test/fixtures/README.md, ServerLacksCapability for implementation, diagnostics by pull
 * (it registers pull dynamically and then pushes nothing), and the column units on the
 * emoji lines.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { BridgeHandle } from "../support/bridge.ts";
import {
  anyEditSet,
  diagnosticsFor,
  fails,
  locs,
  ok,
  range,
  readyByState,
  realSuite,
  requiredUnderCI,
  startAndStatus,
  startRealBridge,
  symbolTree,
} from "../support/real-bridge.ts";
import { findPyright } from "../support/real-servers.ts";
import { zeroConfigTest } from "../support/zero-config-bridge.ts";

const pyright = await findPyright();

requiredUnderCI("pyright", pyright, (p) => expect(p.version).toStartWith("pyright 1.1."));

const suite = realSuite("pyright", pyright);
const config = suite.config;

const pythonFixture = (): string => suite.fixture("python");

/** errors.py's two errors; `col` maps a code-point column to the bridge's unit. */
function errorsPy(col: (cp: number) => number = (cp) => cp) {
  return [
    {
      file: "errors.py",
      ...range(3, 14, 3, 21),
      severity: "error",
      code: "reportAssignmentType",
      source: "Pyright",
      // pyright indents the second line with two no-break spaces (U+00A0)
      message:
        'Type "Literal[\'three\']" is not assignable to declared type "int"\n\u00a0\u00a0"Literal[\'three\']" is not assignable to "int"',
      channels: ["pull"],
    },
    {
      file: "errors.py",
      ...range(4, col(40), 4, col(41)),
      severity: "error",
      code: "reportCallIssue",
      source: "Pyright",
      message: "Expected 0 positional arguments",
      channels: ["pull"],
    },
  ];
}

const MAKE_CIRCLE_REFS = [
  "app.py 1:30–1:41",
  "app.py 8:11–8:22",
  "app.py 8:29–8:40",
  "errors.py 1:22–1:33",
  "errors.py 4:18–4:29",
  "geometry.py 14:5–14:16",
];

describe.skipIf(!pyright)("pyright on the python fixture (code points)", () => {
  let bridge: BridgeHandle;
  beforeAll(async () => {
    bridge = await startRealBridge(pythonFixture(), config());
  });
  afterAll(() => bridge?.close());

  test("becomes ready by state: the 'Found N source files' log line", async () => {
    const s = await startAndStatus(bridge);
    readyByState(s, ["log_message /Found \\d+ source file"]);
    expect(s.version_observed).toBe(pyright?.version);
  });

  test("definition and declaration, by symbol and by column, across files and after emoji", async () => {
    const local = await ok(bridge, "definition", { file: "app.py", line: 9, symbol: "total_area" });
    expect(locs(local)).toEqual(["app.py 4:5–4:15"]);
    expect(await ok(bridge, "definition", { file: "app.py", line: 9, column: 19 })).toEqual(local);
    for (const tool of ["definition", "declaration"]) {
      const r = await ok(bridge, tool, { file: "app.py", line: 8, symbol: "make_circle" });
      expect(locs(r)).toEqual(["geometry.py 14:5–14:16"]);
    }
    const afterEmoji = await ok(bridge, "definition", { file: "errors.py", line: 4, column: 18 });
    expect(locs(afterEmoji)).toEqual(["geometry.py 14:5–14:16"]);
    const area = await ok(bridge, "definition", { file: "app.py", line: 5, symbol: "area" });
    expect(locs(area)).toEqual(["geometry.py 10:9–10:13"]);
    const circle = await ok(bridge, "definition", { file: "app.py", line: 4, symbol: "Circle" });
    expect(locs(circle)).toEqual(["geometry.py 4:7–4:13"]);
  });

  test("references, with and without the declaration (pyright drops the one under the cursor)", async () => {
    const all = await ok(bridge, "references", { file: "app.py", line: 8, symbol: "make_circle" });
    expect(locs(all)).toEqual(MAKE_CIRCLE_REFS);
    const noDecl = await ok(bridge, "references", {
      file: "app.py",
      line: 8,
      column: 11,
      include_declaration: false,
    });
    expect(locs(noDecl)).toEqual(MAKE_CIRCLE_REFS.filter((l) => l !== "app.py 8:11–8:22"));
    const total = await ok(bridge, "references", { file: "app.py", line: 9, symbol: "total_area" });
    expect(locs(total)).toEqual(["app.py 4:5–4:15", "app.py 9:19–9:29"]);
    const totalNoDecl = await ok(bridge, "references", {
      file: "app.py",
      line: 9,
      symbol: "total_area",
      include_declaration: false,
    });
    expect(locs(totalNoDecl)).toEqual(["app.py 4:5–4:15"]);
    const circle = await ok(bridge, "references", { file: "app.py", line: 4, column: 30 });
    expect(locs(circle)).toEqual([
      "app.py 1:22–1:28",
      "app.py 4:30–4:36",
      "geometry.py 4:7–4:13",
      "geometry.py 14:35–14:41",
      "geometry.py 15:12–15:18",
    ]);
  });

  test("paging: limit/offset over the six references", async () => {
    const first = await ok(bridge, "references", {
      file: "app.py",
      line: 8,
      symbol: "make_circle",
      limit: 4,
    });
    expect(locs(first)).toEqual(MAKE_CIRCLE_REFS.slice(0, 4));
    expect(first.total).toBe(6);
    expect(first.next_offset).toBe(4);
    const rest = await ok(bridge, "references", {
      file: "app.py",
      line: 8,
      symbol: "make_circle",
      limit: 4,
      offset: 4,
    });
    expect(locs(rest)).toEqual(MAKE_CIRCLE_REFS.slice(4));
    expect(rest.next_offset).toBeUndefined();
  });

  test("hover is the signature without the markdown fence", async () => {
    const r = await ok(bridge, "hover", { file: "app.py", line: 8, symbol: "make_circle" });
    expect(r).toEqual({
      text: "(function) def make_circle(radius: float) -> Circle",
      range: range(8, 11, 8, 22),
    });
  });

  test("type_definition of a loop variable is its class", async () => {
    const r = await ok(bridge, "type_definition", { file: "app.py", line: 5, column: 16 });
    expect(locs(r)).toEqual(["geometry.py 4:7–4:13"]);
  });

  test("implementation: pyright does not offer it → ServerLacksCapability", async () => {
    const err = await fails(bridge, "implementation", { file: "app.py", line: 4, column: 30 });
    expect(err.code).toBe("ServerLacksCapability");
    expect(err.details).toEqual({ server: "pyright", method: "textDocument/implementation" });
  });

  test("document_symbols: the measured trees of geometry.py and app.py", async () => {
    const g = await ok(bridge, "document_symbols", { file: "geometry.py" });
    expect(symbolTree(g.symbols as never)).toEqual([
      "Circle class 4:1–11:47 / 4:7–4:13",
      "  __init__ method 7:5–8:29 / 7:9–7:17",
      "    radius variable 7:24–7:37 / 7:24–7:37",
      "  radius variable 8:14–8:20 / 8:14–8:20",
      "  area method 10:5–11:47 / 10:9–10:13",
      "make_circle function 14:1–15:26 / 14:5–14:16",
      "  radius variable 14:17–14:30 / 14:17–14:30",
    ]);
    const a = await ok(bridge, "document_symbols", { file: "app.py" });
    expect(symbolTree(a.symbols as never)).toEqual([
      "total_area function 4:1–5:42 / 4:5–4:15",
      "  circles variable 4:16–4:37 / 4:16–4:37",
      "shapes variable 8:1–8:7 / 8:1–8:7",
    ]);
  });

  test("workspace_symbols: exact and fuzzy matches", async () => {
    const m = await ok(bridge, "workspace_symbols", { query: "make_circle" });
    expect(m.symbols).toEqual([
      { name: "make_circle", kind: "function", file: "geometry.py", ...range(14, 5, 14, 16) },
    ]);
    const c = await ok(bridge, "workspace_symbols", { query: "Circle" });
    expect(c.symbols).toEqual([
      {
        name: "circles",
        kind: "variable",
        container: "total_area",
        file: "app.py",
        ...range(4, 16, 4, 37),
      },
      { name: "Circle", kind: "class", file: "geometry.py", ...range(4, 7, 4, 13) },
      { name: "make_circle", kind: "function", file: "geometry.py", ...range(14, 5, 14, 16) },
    ]);
  });

  test("rename_preview: six edits across three files", async () => {
    const r = await ok(bridge, "rename_preview", {
      file: "app.py",
      line: 8,
      symbol: "make_circle",
      new_name: "new_circle",
    });
    const edit = (l: number, c: number, e: number) => ({
      ...range(l, c, l, e),
      new_text: "new_circle",
    });
    expect(r).toEqual({
      applied: false,
      new_name: "new_circle",
      edit_set: anyEditSet(),
      changes: [
        { file: "app.py", edits: [edit(1, 30, 41), edit(8, 11, 22), edit(8, 29, 40)] },
        { file: "errors.py", edits: [edit(1, 22, 33), edit(4, 18, 29)] },
        { file: "geometry.py", edits: [edit(14, 5, 16)] },
      ],
    });
  });

  test("diagnostics: errors.py's two errors by pull, none for the clean files", async () => {
    expect(await ok(bridge, "diagnostics", { file: "errors.py" })).toEqual(
      diagnosticsFor(["errors.py"], errorsPy()),
    );
    for (const file of ["app.py", "geometry.py"]) {
      expect(await ok(bridge, "diagnostics", { file })).toEqual(diagnosticsFor([file], []));
    }
    // workspace-wide: everything the session holds, i.e. the same two
    expect(await ok(bridge, "diagnostics")).toEqual(
      diagnosticsFor(["app.py", "errors.py", "geometry.py"], errorsPy(), false),
    );
  });

  test("code_actions: pyright offers none on its errors", async () => {
    for (const [line, column] of [
      [3, 14],
      [4, 40],
    ]) {
      const r = await ok(bridge, "code_actions", { file: "errors.py", line, column });
      expect(r).toEqual({ actions: [], total: 0 });
    }
  });
});

describe.skipIf(!pyright)("pyright column units on the emoji lines", () => {
  for (const [unit, col] of [
    // app.py 9 `total_area`: code point 19, UTF-16 offset 20 → 21, UTF-8 offset 24 → 25
    ["utf-16", (cp: number) => cp + 2],
    ["utf-8", (cp: number) => cp + 6],
  ] as const) {
    test(`column_unit = "${unit}": positions, references and diagnostics in ${unit}`, async () => {
      const bridge = await startRealBridge(pythonFixture(), config(), {
        bridge: { column_unit: unit },
      });
      try {
        const byColumn = await ok(bridge, "references", {
          file: "app.py",
          line: 9,
          column: col(19),
        });
        expect(locs(byColumn)).toEqual(["app.py 4:5–4:15", `app.py 9:${col(19)}–9:${col(29)}`]);
        const bySymbol = await ok(bridge, "references", {
          file: "app.py",
          line: 9,
          symbol: "total_area",
        });
        expect(bySymbol).toEqual(byColumn);
        // errors.py 4: the bad argument `1` after two emoji
        expect(await ok(bridge, "diagnostics", { file: "errors.py" })).toEqual(
          diagnosticsFor(["errors.py"], errorsPy(col)),
        );
      } finally {
        await bridge.close();
      }
    });
  }
});

zeroConfigTest(
  "pyright",
  pyright,
  "ready by its log line; references and diagnostics as measured",
  pythonFixture,
  async (bridge) => {
    readyByState(await startAndStatus(bridge, "pyright"), ["log_message /Found \\d+ source file"]);
    const refs = await ok(bridge, "references", { file: "app.py", line: 8, symbol: "make_circle" });
    expect(locs(refs)).toEqual(MAKE_CIRCLE_REFS);
    expect(await ok(bridge, "diagnostics", { file: "errors.py" })).toEqual(
      diagnosticsFor(["errors.py"], errorsPy()),
    );
  },
);
