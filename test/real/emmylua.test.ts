/**
 * emmylua_ls through the compiled bridge (SPEC §11 real servers) on the `lua` fixture:
 * readiness by state (its "Load workspace" task, required), the read tools against the
 * answers measured in test/fixtures/README.md, pull-only diagnostics (complete on the first
 * call, also workspace-wide before anything was opened), rename_preview and code actions.
 *
 * emmylua_ls 0.25.1 announces no positionEncoding (so LSP's UTF-16 would apply) but counts
 * columns in code points; its preset says so (`position_encoding = "utf-32"`), and the
 * fixture's emoji line (main.lua line 4, two astral characters before `shapes.total_area`)
 * proves the columns right in both directions and in each column unit
 * (docs/LANGUAGE-SERVERS.md).
 */
import { describe, expect, test } from "bun:test";
import { isAbsolute } from "node:path";
import { findEmmyLua, PINNED_VERSION_OUTPUT } from "../support/built-servers.ts";
import { languageSuite } from "../support/language-suite.ts";
import {
  diagnosticsFor,
  locs,
  ok,
  range,
  readyByState,
  startAndStatus,
} from "../support/real-bridge.ts";
import { lastThroughZeroConfig } from "../support/zero-config-bridge.ts";

const emmy = await findEmmyLua();

const SHAPES_AREA = { file: "shapes.lua", line: 29, symbol: "area" };
const TOTAL_AREA = { file: "main.lua", line: 4, symbol: "total_area" };
// `total_area` is at code points 20–29 of main.lua line 4
const TOTAL_AREA_HOVER = {
  text: "function M.total_area(rects: Rect[]) -> integer\n\n---\n\nSum of the areas of all rectangles.",
  range: range(4, 20, 4, 30),
};

const suite = languageSuite(
  {
    server: "emmylua_ls",
    fixture: "lua",
    installed: (e) => expect(e.version).toBe(PINNED_VERSION_OUTPUT.emmyLua),
    ready: ["progress ^Load workspace (required)"],
    // the preset's position_encoding, not the UTF-16 its silence would mean
    encoding: "utf-32",
    // on ASCII lines, and on the emoji line (columns right both ways)
    definition: [
      { at: SHAPES_AREA, locs: ["shapes.lua 17:10–17:19"] },
      { at: TOTAL_AREA, locs: ["shapes.lua 26:10–26:22"] },
    ],
    locations: [
      {
        tool: "implementation",
        at: { file: "shapes.lua", line: 17, symbol: "area" },
        locs: ["shapes.lua 17:10–17:19"],
      },
    ],
    hover: [
      {
        at: { file: "shapes.lua", line: 17, symbol: "area" },
        answer: {
          text: "(method) Rect:area() -> integer\n\n---\n\nWidth times height.",
          range: range(17, 15, 17, 19),
        },
      },
      { at: TOTAL_AREA, answer: TOTAL_AREA_HOVER },
      // code point 28 is inside the name: read as the server counts (UTF-16 would land on `(`)
      { at: { file: "main.lua", line: 4, column: 28 }, answer: TOTAL_AREA_HOVER },
    ],
    references: [
      {
        at: { file: "shapes.lua", line: 17, symbol: "area" },
        locs: ["shapes.lua 17:10–17:19", "shapes.lua 29:21–29:27"],
      },
      // the whole `shapes.total_area` expression
      {
        at: TOTAL_AREA,
        locs: ["errors.lua 5:10–5:27", "main.lua 4:13–4:30", "shapes.lua 26:10–26:22"],
      },
      {
        at: { ...TOTAL_AREA, include_declaration: false },
        locs: ["errors.lua 5:10–5:27", "main.lua 4:13–4:30"],
      },
    ],
    // no declaration or type definition provider
    lacks: [
      { tool: "declaration", args: SHAPES_AREA },
      { tool: "type_definition", args: SHAPES_AREA },
    ],
    symbols: [
      {
        file: "shapes.lua",
        tree: [
          "Rect class 4:1–4:16 / 4:1–4:16",
          "Rect.new function 11:1–13:4 / 11:10–11:18 [(width, height)]",
          "  width variable 11:19–11:24 / 11:19–11:24",
          "  height variable 11:26–11:32 / 11:26–11:32",
          "Rect:area function 17:1–19:4 / 17:10–17:19 [()]",
          "M object 21:1–21:26 / 21:1–21:26",
          "  Rect field 21:13–21:24 / 21:13–21:24",
          "M.total_area function 26:1–32:4 / 26:10–26:22 [(rects)]",
          "  rects variable 26:23–26:28 / 26:23–26:28",
          "  total number 27:3–27:18 / 27:3–27:18",
          "  for in module 28:3–30:6 / 28:3–30:6",
          "    _ number 28:7–28:8 / 28:7–28:8",
          "    r variable 28:10–28:11 / 28:10–28:11",
        ],
      },
    ],
    // on the emoji line
    rename: {
      at: TOTAL_AREA,
      new_name: "sum_areas",
      locs: ["errors.lua 5:17–5:27", "main.lua 4:20–4:30", "shapes.lua 26:12–26:22"],
    },
    // main.lua line 4 `total_area`: code points 20–29 = UTF-16 22–31 = UTF-8 26–35 (1-based);
    // the whole `shapes.total_area` expression from code point 13
    units: {
      units: ["utf-16", "utf-8"],
      at: TOTAL_AREA,
      column: 21,
      refs: (col) => [
        "errors.lua 5:10–5:27",
        `main.lua 4:${col(13)}–4:${col(30)}`,
        "shapes.lua 26:10–26:22",
      ],
      hover: [20, 30],
    },
  },
  emmy,
  (bridge) => {
    test("definition into its std stubs: an absolute path outside the workspace", async () => {
      const r = await ok(bridge(), "definition", { file: "main.lua", line: 4, symbol: "print" });
      const [only, ...more] = locs(r);
      expect(more).toEqual([]);
      expect(isAbsolute(only ?? "")).toBe(true);
      expect(only).toContain("/emmylua_ls/resources/std/global.lua ");
    });

    test("workspace_symbols: type declarations (the ---@class), not functions", async () => {
      const rect = await ok(bridge(), "workspace_symbols", { query: "Rect" });
      expect(rect.symbols).toEqual([
        { name: "Rect", kind: "class", file: "shapes.lua", ...range(1, 11, 1, 15) },
      ]);
      expect(await ok(bridge(), "workspace_symbols", { query: "total_area" })).toEqual({
        symbols: [],
        total: 0,
      });
    });

    test("code actions: the measured answer", async () => {
      const actions = await ok(bridge(), "code_actions", {
        file: "errors.lua",
        line: 5,
        symbol: "missing_value",
      });
      expect(actions).toEqual({
        actions: [
          ["Disable current line diagnostic (undefined-global)", true],
          ["Disable all diagnostics in current file (undefined-global)", true],
          ["Disable all diagnostics in current project (undefined-global)", false],
        ].map(([title, edit]) => ({
          title,
          kind: "quickfix",
          preferred: false,
          has_edit: edit,
          has_command: !edit,
        })),
        total: 3,
      });
    });
  },
);

const ERRORS_LUA = [
  {
    file: "errors.lua",
    ...range(4, 7, 4, 8),
    severity: "warning",
    code: "assign-type-mismatch",
    source: "EmmyLua",
    message: "Cannot assign `string` to `integer`. ",
    channels: ["pull"],
  },
  {
    file: "errors.lua",
    ...range(5, 28, 5, 41),
    severity: "error",
    code: "undefined-global",
    source: "EmmyLua",
    message: "undefined global variable: missing_value",
    channels: ["pull"],
  },
];

describe.skipIf(!emmy)("emmylua_ls on the lua fixture (code points)", () => {
  test("ready by state; diagnostics complete on the first call, workspace-wide before any open; the last session through zero-config", async () => {
    if (!emmy) return;
    for (let i = 0; i < 3; i++) {
      // the last through zero-config, the path users run (SPEC §2.1)
      await using bridge = await lastThroughZeroConfig(i, 3, suite.fixture("lua"), emmy);
      const s = await startAndStatus(bridge);
      readyByState(s, ["progress ^Load workspace (required)"]);
      // the preset's position_encoding, not the UTF-16 its silence would mean
      expect(s.position_encoding).toBe("utf-32");
      // workspace/diagnostic: the unopened file's errors, by pull
      expect(await ok(bridge, "diagnostics")).toEqual(
        diagnosticsFor(["errors.lua", "main.lua", "shapes.lua"], ERRORS_LUA, true),
      );
      expect((await startAndStatus(bridge)).open_documents).toBe(0);
      expect(await ok(bridge, "diagnostics", { file: "errors.lua" })).toEqual(
        diagnosticsFor(["errors.lua"], ERRORS_LUA),
      );
      for (const file of ["main.lua", "shapes.lua"]) {
        expect(await ok(bridge, "diagnostics", { file })).toEqual(diagnosticsFor([file], []));
      }
    }
  });
});
