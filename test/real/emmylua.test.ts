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
import {
  anyEditSet,
  diagnosticsFor,
  fails,
  locs,
  ok,
  range,
  readyByState,
  realSuite,
  renameEdit,
  requiredUnderCI,
  startAndStatus,
  startRealBridge,
  symbolTree,
} from "../support/real-bridge.ts";
import { lastThroughZeroConfig } from "../support/zero-config-bridge.ts";

const emmy = await findEmmyLua();

requiredUnderCI("emmylua_ls", emmy, (e) => expect(e.version).toBe(PINNED_VERSION_OUTPUT.emmyLua));

const suite = realSuite("emmylua_ls", emmy);

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
      const bridge = await lastThroughZeroConfig(i, 3, suite.fixture("lua"), emmy);
      try {
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
      } finally {
        await bridge.close();
      }
    }
  });

  test("navigation on ASCII lines: definition, implementation, hover, references", async () => {
    const bridge = await startRealBridge(suite.fixture("lua"), suite.config());
    try {
      const def = await ok(bridge, "definition", { file: "shapes.lua", line: 29, symbol: "area" });
      expect(locs(def)).toEqual(["shapes.lua 17:10–17:19"]);
      const impl = await ok(bridge, "implementation", {
        file: "shapes.lua",
        line: 17,
        symbol: "area",
      });
      expect(locs(impl)).toEqual(["shapes.lua 17:10–17:19"]);
      expect(await ok(bridge, "hover", { file: "shapes.lua", line: 17, symbol: "area" })).toEqual({
        text: "(method) Rect:area() -> integer\n\n---\n\nWidth times height.",
        range: range(17, 15, 17, 19),
      });
      const refs = await ok(bridge, "references", { file: "shapes.lua", line: 17, symbol: "area" });
      expect(locs(refs)).toEqual(["shapes.lua 17:10–17:19", "shapes.lua 29:21–29:27"]);
      // no declaration or type definition provider
      const at = { file: "shapes.lua", line: 29, symbol: "area" };
      expect((await fails(bridge, "declaration", at)).code).toBe("ServerLacksCapability");
      expect((await fails(bridge, "type_definition", at)).code).toBe("ServerLacksCapability");
    } finally {
      await bridge.close();
    }
  });

  test("definition into its std stubs: an absolute path outside the workspace", async () => {
    const bridge = await startRealBridge(suite.fixture("lua"), suite.config());
    try {
      const r = await ok(bridge, "definition", { file: "main.lua", line: 4, symbol: "print" });
      const [only, ...more] = locs(r);
      expect(more).toEqual([]);
      expect(isAbsolute(only ?? "")).toBe(true);
      expect(only).toContain("/emmylua_ls/resources/std/global.lua ");
    } finally {
      await bridge.close();
    }
  });

  test("the emoji line: columns right both ways (preset position_encoding = utf-32)", async () => {
    const bridge = await startRealBridge(suite.fixture("lua"), suite.config());
    try {
      // `total_area` is at code points 20–29 of main.lua line 4
      const at = { file: "main.lua", line: 4, symbol: "total_area" };
      const hover = {
        text: "function M.total_area(rects: Rect[]) -> integer\n\n---\n\nSum of the areas of all rectangles.",
        range: range(4, 20, 4, 30),
      };
      expect(await ok(bridge, "hover", at)).toEqual(hover);
      // code point 28 is inside the name: read as the server counts (UTF-16 would land on `(`)
      expect(await ok(bridge, "hover", { file: "main.lua", line: 4, column: 28 })).toEqual(hover);
      expect(locs(await ok(bridge, "definition", at))).toEqual(["shapes.lua 26:10–26:22"]);
      // its references span the whole `shapes.total_area` expression
      expect(locs(await ok(bridge, "references", at))).toEqual([
        "errors.lua 5:10–5:27",
        "main.lua 4:13–4:30",
        "shapes.lua 26:10–26:22",
      ]);
      expect(locs(await ok(bridge, "references", { ...at, include_declaration: false }))).toEqual([
        "errors.lua 5:10–5:27",
        "main.lua 4:13–4:30",
      ]);
      const rename = await ok(bridge, "rename_preview", { ...at, new_name: "sum_areas" });
      const edit = renameEdit("sum_areas");
      expect(rename).toEqual({
        applied: false,
        new_name: "sum_areas",
        edit_set: anyEditSet(),
        changes: [
          { file: "errors.lua", edits: [edit(5, 17, 27)] },
          { file: "main.lua", edits: [edit(4, 20, 30)] },
          { file: "shapes.lua", edits: [edit(26, 12, 22)] },
        ],
      });
    } finally {
      await bridge.close();
    }
  });

  test("the emoji line in UTF-16 and UTF-8 column units", async () => {
    // main.lua line 4 `total_area`: code points 20–29 = UTF-16 22–31 = UTF-8 26–35 (1-based)
    for (const [unit, start, end] of [
      ["utf-16", 22, 32],
      ["utf-8", 26, 36],
    ] as const) {
      const bridge = await startRealBridge(suite.fixture("lua"), suite.config(), {
        bridge: { column_unit: unit },
      });
      try {
        const r = await ok(bridge, "hover", { file: "main.lua", line: 4, column: start + 1 });
        expect(r.range).toEqual(range(4, start, 4, end));
      } finally {
        await bridge.close();
      }
    }
  });

  test("document_symbols, workspace_symbols and code actions: the measured answers", async () => {
    const bridge = await startRealBridge(suite.fixture("lua"), suite.config());
    try {
      const shapes = await ok(bridge, "document_symbols", { file: "shapes.lua" });
      expect(symbolTree(shapes.symbols as never)).toEqual([
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
      ]);
      // it lists type declarations (the ---@class), not functions
      const rect = await ok(bridge, "workspace_symbols", { query: "Rect" });
      expect(rect.symbols).toEqual([
        { name: "Rect", kind: "class", file: "shapes.lua", ...range(1, 11, 1, 15) },
      ]);
      expect(await ok(bridge, "workspace_symbols", { query: "total_area" })).toEqual({
        symbols: [],
        total: 0,
      });
      const actions = await ok(bridge, "code_actions", {
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
    } finally {
      await bridge.close();
    }
  });
});
