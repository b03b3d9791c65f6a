/**
 * pyright through the compiled bridge (SPEC §11 real servers): readiness by state (its
 * `Found N source files` log), every tool it offers against the answers measured in
 * test/fixtures/README.md, ServerLacksCapability for implementation, diagnostics by pull
 * (it registers pull dynamically and then pushes nothing), and the column units on the
 * emoji lines.
 */
import { expect, test } from "bun:test";
import { languageSuite } from "../support/language-suite.ts";
import {
  diagnosticsFor,
  locs,
  ok,
  range,
  readyByState,
  startAndStatus,
} from "../support/real-bridge.ts";
import { findPyright } from "../support/real-servers.ts";
import { zeroConfigTest } from "../support/zero-config-bridge.ts";

const pyright = await findPyright();

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

const MAKE_CIRCLE_AT = { file: "app.py", line: 8, symbol: "make_circle" };
const MAKE_CIRCLE = {
  name: "make_circle",
  kind: "function",
  file: "geometry.py",
  ...range(14, 5, 14, 16),
};

const suite = languageSuite(
  {
    server: "pyright",
    fixture: "python",
    installed: (p) => expect(p.version).toStartWith("pyright 1.1."),
    ready: ["log_message /Found \\d+ source file"],
    encoding: "utf-16",
    // by symbol and by column, across files and after emoji
    definition: [
      { at: { file: "app.py", line: 9, symbol: "total_area" }, locs: ["app.py 4:5–4:15"] },
      { at: { file: "app.py", line: 9, column: 19 }, locs: ["app.py 4:5–4:15"] },
      { at: MAKE_CIRCLE_AT, locs: ["geometry.py 14:5–14:16"] },
      { at: { file: "errors.py", line: 4, column: 18 }, locs: ["geometry.py 14:5–14:16"] },
      { at: { file: "app.py", line: 5, symbol: "area" }, locs: ["geometry.py 10:9–10:13"] },
      { at: { file: "app.py", line: 4, symbol: "Circle" }, locs: ["geometry.py 4:7–4:13"] },
    ],
    locations: [
      {
        tool: "declaration",
        at: MAKE_CIRCLE_AT,
        locs: ["geometry.py 14:5–14:16"],
      },
      // a loop variable's type is its class
      {
        tool: "type_definition",
        at: { file: "app.py", line: 5, column: 16 },
        locs: ["geometry.py 4:7–4:13"],
      },
    ],
    // with and without the declaration (pyright drops the one under the cursor)
    references: [
      { at: MAKE_CIRCLE_AT, locs: MAKE_CIRCLE_REFS },
      {
        at: { file: "app.py", line: 8, column: 11, include_declaration: false },
        locs: MAKE_CIRCLE_REFS.filter((l) => l !== "app.py 8:11–8:22"),
      },
      {
        at: { file: "app.py", line: 9, symbol: "total_area" },
        locs: ["app.py 4:5–4:15", "app.py 9:19–9:29"],
      },
      {
        at: { file: "app.py", line: 9, symbol: "total_area", include_declaration: false },
        locs: ["app.py 4:5–4:15"],
      },
      {
        at: { file: "app.py", line: 4, column: 30 },
        locs: [
          "app.py 1:22–1:28",
          "app.py 4:30–4:36",
          "geometry.py 4:7–4:13",
          "geometry.py 14:35–14:41",
          "geometry.py 15:12–15:18",
        ],
      },
    ],
    // the signature without the markdown fence
    hover: [
      {
        at: MAKE_CIRCLE_AT,
        answer: {
          text: "(function) def make_circle(radius: float) -> Circle",
          range: range(8, 11, 8, 22),
        },
      },
    ],
    symbols: [
      {
        file: "geometry.py",
        tree: [
          "Circle class 4:1–11:47 / 4:7–4:13",
          "  __init__ method 7:5–8:29 / 7:9–7:17",
          "    radius variable 7:24–7:37 / 7:24–7:37",
          "  radius variable 8:14–8:20 / 8:14–8:20",
          "  area method 10:5–11:47 / 10:9–10:13",
          "make_circle function 14:1–15:26 / 14:5–14:16",
          "  radius variable 14:17–14:30 / 14:17–14:30",
        ],
      },
      {
        file: "app.py",
        tree: [
          "total_area function 4:1–5:42 / 4:5–4:15",
          "  circles variable 4:16–4:37 / 4:16–4:37",
          "shapes variable 8:1–8:7 / 8:1–8:7",
        ],
      },
    ],
    // pyright does not offer implementation
    lacks: [
      {
        tool: "implementation",
        args: { file: "app.py", line: 4, column: 30 },
        method: "textDocument/implementation",
      },
    ],
    // errors.py's two errors by pull, none for the clean files
    diagnostics: { file: "errors.py", items: errorsPy(), settled: true },
    clean: ["app.py", "geometry.py"],
    // everything the session holds, i.e. the same two
    workspace: { files: ["app.py", "errors.py", "geometry.py"], items: errorsPy() },
    // exact and fuzzy matches
    workspaceSymbols: [
      { query: "make_circle", symbols: [MAKE_CIRCLE] },
      {
        query: "Circle",
        symbols: [
          {
            name: "circles",
            kind: "variable",
            container: "total_area",
            file: "app.py",
            ...range(4, 16, 4, 37),
          },
          { name: "Circle", kind: "class", file: "geometry.py", ...range(4, 7, 4, 13) },
          MAKE_CIRCLE,
        ],
      },
    ],
    // six edits across three files
    rename: { at: MAKE_CIRCLE_AT, new_name: "new_circle", locs: MAKE_CIRCLE_REFS },
    // app.py 9 `total_area`: code point 19, UTF-16 offset 20 → 21, UTF-8 offset 24 → 25;
    // errors.py 4: the bad argument `1` after two emoji
    units: {
      units: ["utf-16", "utf-8"],
      at: { file: "app.py", line: 9, symbol: "total_area" },
      column: 19,
      refs: (col) => ["app.py 4:5–4:15", `app.py 9:${col(19)}–9:${col(29)}`],
      diagnostics: { file: "errors.py", items: errorsPy },
    },
  },
  pyright,
  (bridge) => {
    test("paging: limit/offset over the six references", async () => {
      const first = await ok(bridge(), "references", { ...MAKE_CIRCLE_AT, limit: 4 });
      expect(locs(first)).toEqual(MAKE_CIRCLE_REFS.slice(0, 4));
      expect(first.total).toBe(6);
      expect(first.next_offset).toBe(4);
      const rest = await ok(bridge(), "references", { ...MAKE_CIRCLE_AT, limit: 4, offset: 4 });
      expect(locs(rest)).toEqual(MAKE_CIRCLE_REFS.slice(4));
      expect(rest.next_offset).toBeUndefined();
    });

    test("code_actions: pyright offers none on its errors", async () => {
      for (const [line, column] of [
        [3, 14],
        [4, 40],
      ]) {
        const r = await ok(bridge(), "code_actions", { file: "errors.py", line, column });
        expect(r).toEqual({ actions: [], total: 0 });
      }
    });

    test("the version observed is the one located", async () => {
      expect((await startAndStatus(bridge())).version_observed).toBe(pyright?.version);
    });
  },
);
const pythonFixture = (): string => suite.fixture("python");

zeroConfigTest(
  "pyright",
  pyright,
  "ready by its log line; references and diagnostics as measured",
  pythonFixture,
  async (bridge) => {
    readyByState(await startAndStatus(bridge, "pyright"), ["log_message /Found \\d+ source file"]);
    const refs = await ok(bridge, "references", MAKE_CIRCLE_AT);
    expect(locs(refs)).toEqual(MAKE_CIRCLE_REFS);
    expect(await ok(bridge, "diagnostics", { file: "errors.py" })).toEqual(
      diagnosticsFor(["errors.py"], errorsPy()),
    );
  },
);
