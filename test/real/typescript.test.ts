/**
 * typescript-language-server through the compiled bridge (SPEC §11 real servers):
 * readiness by state (warm-up open, then its "Initializing JS/TS language features"
 * progress), every tool it offers against the answers measured in test/fixtures/README.md,
 * ServerLacksCapability for declaration, diagnostics (see the known limit below), and the
 * column units on the emoji lines.
 */
import { describe, expect, test } from "bun:test";
import { realpathSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { answers, freshAnswersWith, type Probe } from "../support/coherence.ts";
import { languageSuite } from "../support/language-suite.ts";
import { anyEditSet, locs, ok, range, renameEdit, startAndStatus } from "../support/real-bridge.ts";
import { findTypescriptLanguageServer, TEST_SERVERS_DIR } from "../support/real-servers.ts";
import { expectServed, startZeroConfig } from "../support/zero-config-bridge.ts";

const tls = await findTypescriptLanguageServer();

/** src/errors.ts's two errors; `col` maps a code-point column to the bridge's unit. */
function errorsTs(col: (cp: number) => number = (cp) => cp) {
  return [
    {
      file: "src/errors.ts",
      ...range(3, 14, 3, 19),
      severity: "error",
      code: "2322",
      source: "typescript",
      message: "Type 'string' is not assignable to type 'number'.",
      channels: ["pull"],
    },
    {
      file: "src/errors.ts",
      ...range(4, col(57), 4, col(60)),
      severity: "error",
      code: "2345",
      source: "typescript",
      message: "Argument of type 'string' is not assignable to parameter of type 'number'.",
      channels: ["pull"],
    },
  ];
}

const TOTAL_AREA_REFS = [
  "src/errors.ts 1:18–1:27",
  "src/errors.ts 4:35–4:44",
  "src/main.ts 1:18–1:27",
  "src/main.ts 4:35–4:44",
  "src/shape.ts 14:17–14:26",
];
const TOTAL_AREA_USE = { file: "src/main.ts", line: 4, symbol: "totalArea" };

const suite = languageSuite(
  {
    server: "typescript-language-server",
    fixture: "ts",
    installed: (t) => expect(t.version).toBe("5.3.0"),
    // warm-up open, the initializing progress, the first publish
    ready: [
      "warmup_open **/*.{ts,tsx,js,jsx}",
      "progress ^Initializing JS/TS",
      "warmup_publish src/",
    ],
    encoding: "utf-16",
    status: (s) => {
      expect(s.open_documents).toBe(1);
      // the warm-up file is one its tsconfig.json includes, so that project is loaded
      expect((s.readiness as { warmup: unknown }).warmup).toMatchObject({
        project: "tsconfig.json",
      });
    },
    // by symbol and by column after emoji; a class and its constructor
    definition: [
      { at: TOTAL_AREA_USE, locs: ["src/shape.ts 14:17–14:26"] },
      { at: { file: "src/main.ts", line: 4, column: 35 }, locs: ["src/shape.ts 14:17–14:26"] },
      {
        at: { file: "src/main.ts", line: 3, column: 22 },
        locs: ["src/shape.ts 6:14–6:20", "src/shape.ts 7:3–7:40"],
      },
    ],
    // tls ignores include_declaration false at a use, honours it at the declaration
    references: [
      { at: { ...TOTAL_AREA_USE, include_declaration: true }, locs: TOTAL_AREA_REFS },
      { at: { ...TOTAL_AREA_USE, include_declaration: false }, locs: TOTAL_AREA_REFS },
      {
        at: { file: "src/shape.ts", line: 14, column: 17, include_declaration: false },
        locs: TOTAL_AREA_REFS.slice(0, 4),
      },
      {
        at: { file: "src/shape.ts", line: 2, symbol: "Shape" },
        locs: ["src/shape.ts 2:18–2:23", "src/shape.ts 6:32–6:37", "src/shape.ts 14:44–14:49"],
      },
    ],
    // the alias signature without the fence
    hover: [
      {
        at: TOTAL_AREA_USE,
        answer: {
          text: "(alias) totalArea(shapes: readonly Shape[]): number\nimport totalArea",
          range: range(4, 35, 4, 44),
        },
      },
    ],
    // the class of an interface, the method of an interface member
    locations: [
      {
        tool: "implementation",
        at: { file: "src/shape.ts", line: 2, column: 18 },
        locs: ["src/shape.ts 6:14–6:20"],
      },
      {
        tool: "implementation",
        at: { file: "src/shape.ts", line: 3, symbol: "area" },
        locs: ["src/shape.ts 9:3–9:7"],
      },
    ],
    symbols: [
      {
        file: "src/shape.ts",
        tree: [
          "Shape interface 2:1–4:2 / 2:18–2:23",
          "  area method 3:3–3:18 / 3:3–3:7",
          "Square class 6:1–12:2 / 6:14–6:20",
          "  constructor constructor 7:3–7:40 / 7:3–7:40",
          "  side property 7:15–7:36 / 7:24–7:28",
          "  area method 9:3–11:4 / 9:3–9:7",
          "totalArea function 14:1–16:2 / 14:17–14:26",
          "  shapes.reduce() callback function 15:24–15:58 / 15:24–15:58",
        ],
      },
      {
        file: "src/main.ts",
        tree: ["squares constant 3:7–3:47 / 3:7–3:14", "total constant 4:27–4:53 / 4:27–4:32"],
      },
    ],
    // tls does not offer declaration
    lacks: [
      {
        tool: "declaration",
        args: { file: "src/main.ts", line: 4, column: 35 },
        method: "textDocument/declaration",
      },
    ],
    // tls publishes once per tsserver diagnostic kind with no version and no end signal, so
    // the bridge asks tsserver (the `tsserver` settle rule, SPEC §6): complete on the first
    // call; none elsewhere
    diagnostics: { file: "src/errors.ts", items: errorsTs(), settled: true },
    clean: ["src/main.ts", "src/shape.ts"],
    // the open files it published for; it offers no workspace pull
    workspace: { files: ["src/errors.ts", "src/main.ts", "src/shape.ts"], items: errorsTs() },
    // the whole declaration's range
    workspaceSymbols: [
      {
        query: "totalArea",
        symbols: [
          { name: "totalArea", kind: "function", file: "src/shape.ts", ...range(14, 1, 16, 2) },
        ],
      },
      {
        query: "Square",
        symbols: [
          { name: "squares", kind: "constant", file: "src/main.ts", ...range(3, 7, 3, 47) },
          { name: "Square", kind: "class", file: "src/shape.ts", ...range(6, 1, 12, 2) },
        ],
      },
    ],
    // main.ts 4 `totalArea`: code point 35, UTF-16 offset 36 → 37, UTF-8 offset 40 → 41
    units: {
      units: ["utf-16", "utf-8"],
      at: TOTAL_AREA_USE,
      column: 35,
      refs: (col) => [
        "src/errors.ts 1:18–1:27",
        `src/errors.ts 4:${col(35)}–4:${col(44)}`,
        "src/main.ts 1:18–1:27",
        `src/main.ts 4:${col(35)}–4:${col(44)}`,
        "src/shape.ts 14:17–14:26",
      ],
      hover: [35, 44],
      diagnostics: { file: "src/errors.ts", items: errorsTs },
    },
  },
  tls,
  (bridge) => {
    test("type_definition: the workspace class first, TypeScript's lib files as absolute paths", async () => {
      const r = await ok(bridge(), "type_definition", {
        file: "src/main.ts",
        line: 3,
        symbol: "squares",
      });
      const [first, ...rest] = locs(r);
      expect(first).toBe("src/shape.ts 6:14–6:20");
      expect(rest.length).toBeGreaterThan(0);
      // the lib directory of the TypeScript discovery pinned for it (test/servers' 5.9.3)
      const tsserver = config().initialization_options.tsserver as { path: string };
      const lib = dirname(tsserver.path);
      expect(lib).toBe(realpathSync(join(TEST_SERVERS_DIR, "node_modules", "typescript", "lib")));
      for (const l of rest) {
        expect(isAbsolute(l)).toBe(true);
        expect(l.startsWith(`${lib}/lib.`)).toBe(true);
      }
    });

    test("rename_preview: an import alias from the use site, five edits from the declaration", async () => {
      const alias = await ok(bridge(), "rename_preview", {
        file: "src/main.ts",
        line: 4,
        symbol: "totalArea",
        new_name: "sumAreas",
      });
      expect(alias).toEqual({
        applied: false,
        new_name: "sumAreas",
        edit_set: anyEditSet(),
        changes: [
          {
            file: "src/main.ts",
            edits: [
              { ...range(1, 18, 1, 27), new_text: "totalArea as sumAreas" },
              { ...range(4, 35, 4, 44), new_text: "sumAreas" },
            ],
          },
        ],
      });
      const decl = await ok(bridge(), "rename_preview", {
        file: "src/shape.ts",
        line: 14,
        column: 17,
        new_name: "sumAreas",
      });
      const edit = renameEdit("sumAreas");
      expect(decl.changes).toEqual([
        { file: "src/errors.ts", edits: [edit(1, 18, 27), edit(4, 35, 44)] },
        { file: "src/main.ts", edits: [edit(1, 18, 27), edit(4, 35, 44)] },
        { file: "src/shape.ts", edits: [edit(14, 17, 26)] },
      ]);
    });

    test("code_actions on the errors: command-only refactors, no quick-fix, nothing with an edit", async () => {
      const r = await ok(bridge(), "code_actions", { file: "src/errors.ts", line: 4, column: 57 });
      const actions = r.actions as Record<string, unknown>[];
      expect(actions.filter((a) => a.has_edit)).toEqual([]);
      expect(actions.filter((a) => a.kind === "quickfix")).toEqual([]);
      // disabled refactors are listed with their reason; the enabled ones are command-only
      const enabled = actions.filter((a) => a.disabled === undefined);
      expect(enabled.map((a) => a.title)).toEqual([
        "Move to a new file",
        "Convert to template string",
        "Extract to function in module scope",
        "Extract to constant in enclosing scope",
      ]);
      for (const a of enabled) expect(a.has_command).toBe(true);
    });
  },
);
const config = suite.config;
const tsFixture = (): string => suite.fixture("ts");

/**
 * The path users run (SPEC §2.1, §5.2): zero-config serves the same configuration, so tsserver
 * gets its file changes from the bridge's watcher (the preset's `useClientFileWatcher`, kept
 * beside the tsserver discovery pins): a file created after the start that calls an exported
 * function is found by references, workspace_symbols and call_hierarchy, as a fresh bridge
 * finds it.
 */
describe.skipIf(!tls)("typescript-language-server through zero-config", () => {
  const EXTRA = [
    'import { Square, totalArea } from "./shape";',
    "",
    "export function extraArea(): number {",
    "  return totalArea([new Square(5)]) + totalArea([]);",
    "}",
    "",
  ].join("\n");
  const probes: Probe[] = [
    { tool: "references", args: { file: "src/shape.ts", line: 14, symbol: "totalArea" } },
    { tool: "workspace_symbols", args: { query: "extraArea" } },
    {
      tool: "call_hierarchy",
      args: { file: "src/shape.ts", line: 14, symbol: "totalArea", direction: "incoming" },
    },
  ];

  test("a new file calling an exported function is found at once, as by a fresh bridge; its watchers registered", async () => {
    if (!tls) return;
    const root = tsFixture();
    const start = (dir: string) => startZeroConfig(dir, [tls]);
    await using bridge = await start(root);
    await expectServed(bridge, tls);
    const before = await ok(bridge, "references", probes[0]?.args);
    expect(locs(before)).toHaveLength(5);
    writeFileSync(join(root, "src", "extra.ts"), EXTRA);
    const truth = freshAnswersWith(root, start, probes);
    const got = await answers(bridge, probes, root);
    expect(got).toEqual(await truth);
    const [refs, symbols, calls] = got as Record<string, unknown>[];
    expect(locs(refs ?? {})).toEqual([
      "src/errors.ts 1:18–1:27",
      "src/errors.ts 4:35–4:44",
      "src/extra.ts 1:18–1:27",
      "src/extra.ts 4:10–4:19",
      "src/extra.ts 4:39–4:48",
      "src/main.ts 1:18–1:27",
      "src/main.ts 4:35–4:44",
      "src/shape.ts 14:17–14:26",
    ]);
    expect(symbols?.symbols).toEqual([
      { name: "extraArea", kind: "function", file: "src/extra.ts", ...range(3, 1, 5, 2) },
    ]);
    const incoming = (calls?.calls ?? []) as { name: string; file: string }[];
    const callers = incoming.map((c) => `${c.file} ${c.name}`);
    expect(callers).toContain("src/extra.ts extraArea");
    const status = await startAndStatus(bridge, "typescript-language-server");
    const coherence = status.coherence as { watchers: string[]; file_events_sent: number };
    expect(coherence.watchers.length).toBeGreaterThan(0);
    expect(coherence.file_events_sent).toBeGreaterThan(0);
  });
});
