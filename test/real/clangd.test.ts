/**
 * clangd through the compiled bridge (SPEC §11 real servers): readiness by
 * state through the preset, every read tool against the answers measured in
 * test/fixtures/README.md, and the column units on the emoji lines. The
 * compile_commands.json prerequisite (SPEC §3.4) is in clangd-compile-commands.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ServerConfig } from "../../src/config/types.ts";
import { type BridgeHandle, closeBridgesAndTempDirs } from "../support/bridge.ts";
import { languageSuite } from "../support/language-suite.ts";
import {
  diagnosticsFor,
  locs,
  ok,
  range,
  readyByState,
  span,
  startAndStatus,
  startRealBridge,
} from "../support/real-bridge.ts";
import { findClangd, materializeCFixture } from "../support/real-servers.ts";
import { zeroConfigTest } from "../support/zero-config-bridge.ts";

const clangd = await findClangd();

function config(): ServerConfig {
  if (!clangd) throw new Error("clangd missing");
  return clangd.config;
}

afterAll(closeBridgesAndTempDirs);

/** A fixture copy removed after the file's tests. */
function cFixture(fixture: "c" | "c-errors" = "c"): string {
  const dir = materializeCFixture(undefined, fixture);
  return dir;
}

const MANHATTAN = { file: "main.c", line: 6, symbol: "manhattan" };
const MANHATTAN_REFS = ["geometry.h 10:23–10:32", "main.c 6:29–6:38", "util.c 5:5–5:14"];

languageSuite(
  {
    server: "clangd",
    fixture: "c",
    installed: (c) => expect(c.version).toStartWith("Debian clangd version 14"),
    // through the preset: warm-up open, then the index progress
    ready: ["warmup_open **/*.{c,cc,cpp,cxx}", "progress backgroundIndexProgress"],
    encoding: "utf-32",
    status: (s) => {
      expect(s.version_observed).toBe(clangd?.version);
      // the warm-up opened main.c (first sorted source file)
      expect(s.open_documents).toBe(1);
    },
    // from main.c into the .c file that defines manhattan
    definition: [
      { at: MANHATTAN, locs: ["util.c 5:5–5:14"] },
      { at: { file: "main.c", line: 6, column: 29 }, locs: ["util.c 5:5–5:14"] },
      { at: { file: "geometry.h", line: 10, column: 23 }, locs: ["util.c 5:5–5:14"] },
    ],
    locations: [
      // the prototype in geometry.h
      {
        tool: "declaration",
        at: { file: "main.c", line: 6, column: 29 },
        locs: ["geometry.h 10:23–10:32"],
      },
      // a variable's type is its struct
      {
        tool: "type_definition",
        at: { file: "main.c", line: 4, symbol: "origin" },
        locs: ["geometry.h 5:8–5:13"],
      },
    ],
    // three with the declaration, only the call without (clangd drops both)
    references: [
      { at: MANHATTAN, locs: MANHATTAN_REFS },
      {
        at: { file: "main.c", line: 6, column: 29, include_declaration: false },
        locs: ["main.c 6:29–6:38"],
      },
      {
        at: { file: "main.c", line: 4, symbol: "point" },
        locs: [
          "geometry.h 5:8–5:13",
          "geometry.h 10:40–10:45",
          "geometry.h 10:56–10:61",
          "main.c 4:10–4:15",
          "main.c 5:10–5:15",
          "util.c 5:22–5:27",
          "util.c 5:38–5:43",
        ],
      },
    ],
    symbols: [
      {
        file: "geometry.h",
        tree: [
          "point struct 5:1–8:2 / 5:8–5:13 [struct]",
          "  x field 6:3–6:8 / 6:7–6:8 [int]",
          "  y field 7:3–7:8 / 7:7–7:8 [int]",
          "manhattan function 10:19–10:64 / 10:23–10:32 [int (struct point, struct point)]",
        ],
      },
      {
        file: "util.c",
        tree: [
          "absolute function 3:1–3:54 / 3:12–3:20 [int (int)]",
          "manhattan function 5:1–7:2 / 5:5–5:14 [int (struct point, struct point)]",
        ],
      },
    ],
    clean: ["main.c", "util.c", "geometry.h"],
    // the files clangd reported on (the open ones)
    workspace: { files: ["geometry.h", "main.c", "util.c"], items: [] },
    // the definition and the struct
    workspaceSymbols: [
      {
        query: "manhattan",
        symbols: [{ name: "manhattan", kind: "function", file: "util.c", ...range(5, 5, 5, 14) }],
      },
      {
        query: "point",
        symbols: [{ name: "point", kind: "struct", file: "geometry.h", ...range(5, 8, 5, 13) }],
      },
    ],
    // the three places
    rename: { at: MANHATTAN, new_name: "taxicab", locs: MANHATTAN_REFS },
    // main.c line 6 `manhattan`: code point 29, UTF-16 offset 30 → 31, UTF-8 offset 34 → 35;
    // geometry.h line 10 has the same two emoji before the name; util.c 5 is ASCII; column 7
    // is inside the first emoji (its second UTF-16 unit / UTF-8 byte)
    units: {
      units: ["utf-16", "utf-8"],
      at: MANHATTAN,
      column: 29,
      refs: (col) => [
        `geometry.h 10:${col(23)}–10:${col(32)}`,
        `main.c 6:${col(29)}–6:${col(38)}`,
        "util.c 5:5–5:14",
      ],
      inside: 7,
    },
  },
  clangd,
  (bridge) => {
    test("references: three with the declaration", async () => {
      const all = await ok(bridge(), "references", MANHATTAN);
      expect(all.total).toBe(3);
    });

    test("hover carries the signature and the doc comment with its emoji, as plain text", async () => {
      const r = await ok(bridge(), "hover", MANHATTAN);
      const text = r.text as string;
      // clangd's markdown header `### function` is plain text here (SPEC §4.3)
      expect(text).toStartWith("function `manhattan`\n");
      expect(text).not.toMatch(/^#|\\|&\w+;|\/(tmp|home|root|usr)\//m);
      // on an #include, clangd names the header by its absolute path: workspace-relative here
      const include = await ok(bridge(), "hover", { file: "main.c", line: 1, column: 12 });
      expect(include.text).toBe("`geometry.h`\n\n---\ngeometry.h");
      expect(text).toContain("📐📏 distance");
      expect(text).toContain("int manhattan(struct point a, struct point b)");
      expect(span(r.range as never)).toBe("6:29–6:38");
    });

    test("document_symbols of geometry.h: its file and two at the top", async () => {
      const r = await ok(bridge(), "document_symbols", { file: "geometry.h" });
      expect(r.file).toBe("geometry.h");
      expect(r.total).toBe(2);
    });

    test("implementation of a C function is empty", async () => {
      const i = await ok(bridge(), "implementation", { file: "geometry.h", line: 10, column: 23 });
      expect(i).toEqual({ locations: [], total: 0 });
    });
  },
);

/**
 * The two errors of broken.c as the bridge reports them. The bridge advertises
 * `publishDiagnostics.relatedInformation`, so clangd sends the typo error's note as a
 * related location of that error (not folded into its message, nor as a diagnostic of
 * its own); the bridge returns it as `related`.
 */
function brokenDiagnostics(col: (cp: number) => number) {
  return [
    {
      file: "broken.c",
      ...range(7, col(24), 7, col(29)),
      severity: "error",
      code: "undeclared_var_use_suggest",
      source: "clang",
      message: "Use of undeclared identifier 'cuont'; did you mean 'count'? (fix available)",
      related: [
        { file: "broken.c", ...range(6, col(7), 6, col(12)), message: "'count' declared here" },
      ],
      channels: ["push"],
    },
    {
      file: "broken.c",
      ...range(11, 13, 11, 17),
      severity: "error",
      code: "no_member",
      source: "clang",
      message: "No member named 'size' in 'struct counter'",
      channels: ["push"],
    },
  ];
}

describe.skipIf(!clangd)("clangd on the c-errors fixture", () => {
  let bridge: BridgeHandle;
  beforeAll(async () => {
    bridge = await startRealBridge(cFixture("c-errors"), config());
  });
  afterAll(() => bridge?.close());

  test("diagnostics for broken.c: exactly the two measured errors (and clangd's note)", async () => {
    const r = await ok(bridge, "diagnostics", { file: "broken.c" });
    const expected = brokenDiagnostics((cp) => cp);
    expect(r).toEqual(diagnosticsFor(["broken.c"], expected));
    // workspace-wide: what the session accumulated, the same set
    expect(await ok(bridge, "diagnostics")).toEqual(diagnosticsFor(["broken.c"], expected, false));
  });

  test("code_actions on the typo list clangd's quick-fix with an edit (no handle: mutation off)", async () => {
    const fix = await ok(bridge, "code_actions", { file: "broken.c", line: 7, symbol: "cuont" });
    expect(fix).toEqual({
      actions: [
        {
          title: "change 'cuont' to 'count'",
          kind: "quickfix",
          preferred: true,
          has_edit: true,
          has_command: false,
        },
      ],
      total: 1,
    });
    const none = await ok(bridge, "code_actions", { file: "broken.c", line: 11, column: 13 });
    expect(none).toEqual({ actions: [], total: 0 });
  });
});

zeroConfigTest(
  "clangd",
  clangd,
  "ready by the index; definition and references cross files as measured",
  () => cFixture(),
  async (bridge) => {
    const s = await startAndStatus(bridge, "clangd");
    readyByState(s, ["warmup_open **/*.{c,cc,cpp,cxx}", "progress backgroundIndexProgress"]);
    const def = await ok(bridge, "definition", MANHATTAN);
    expect(locs(def)).toEqual(["util.c 5:5–5:14"]);
    expect(locs(await ok(bridge, "references", MANHATTAN))).toEqual(MANHATTAN_REFS);
  },
);
