/**
 * The read tools (SPEC §4.1, §4.3, §6) against canned fake results,
 * through the compiled bridge: exact outputs (Location and LocationLink
 * alike, hover markup as text, flat and hierarchical symbols as one tree,
 * canonical order), ServerLacksCapability, and push + pull diagnostics merged
 * with their channels. One bridge serves the whole block.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { bridgeFor, FakeProbe, lspRange, workspace } from "../fake-server/harness.ts";
import { type BridgeHandle, closeBridgesAndTempDirs } from "../support/bridge.ts";
import { r, range } from "../support/normalize-context.ts";
import { diagnosticAt, diagnosticsFor } from "../support/real-bridge.ts";
import { tempDir } from "../support/temp-dirs.ts";

const SOURCE = "fn alpha() {}\nfn beta() {\n  alpha();\n}\n";
const ws = workspace({
  "a.fake": SOURCE,
  "a.flat": SOURCE,
  "b.fake": "struct Gamma;\nimpl Gamma {}\n",
});
const outsideDir = tempDir("theodolite-outside-");
const outsideFile = join(outsideDir, "lib.fake");
writeFileSync(outsideFile, "abc\n");
const [A, B, FLAT] = [ws.uri("a.fake"), ws.uri("b.fake"), ws.uri("a.flat")];
const OUTSIDE = pathToFileURL(outsideFile).href;
const SCRATCH = "untitled:Scratch-1";

const loc = (uri: string, line: number, c: number, e: number) => ({
  uri,
  range: lspRange(line, c, e),
});
const link = (uri: string, line: number, c: number, e: number) => ({
  targetUri: uri,
  targetRange: lspRange(line, 0, e + 4),
  targetSelectionRange: lspRange(line, c, e),
});
const sym = (name: string, kind: number, uri: string, range: ReturnType<typeof lspRange>) => ({
  name,
  kind,
  location: { uri, range },
});

/** The warning both channels hold, as the fake sends it and as the bridge answers it. */
const UNUSED = { message: "unused", severity: 2, line: 0, character: 3, end_character: 8 };
const UNUSED_OUT = { code: "W1", source: "fake", message: "unused" };

const CAPABILITIES = {
  textDocumentSync: 1,
  definitionProvider: true,
  declarationProvider: true,
  typeDefinitionProvider: true,
  referencesProvider: true,
  hoverProvider: true,
  documentSymbolProvider: true,
  workspaceSymbolProvider: true,
  diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false },
};

const fake = new FakeProbe("fake");
const flat = new FakeProbe("flat");
const SERVERS = [
  fake.server(
    {
      capabilities: CAPABILITIES,
      responses: {
        "textDocument/definition": [
          loc(B, 0, 7, 12),
          loc(A, 0, 3, 8),
          loc(A, 0, 3, 8),
          loc(SCRATCH, 1, 0, 4),
          loc(OUTSIDE, 0, 0, 3),
        ],
        "textDocument/declaration": [
          link(OUTSIDE, 0, 0, 3),
          link(SCRATCH, 1, 0, 4),
          link(B, 0, 7, 12),
          link(A, 0, 3, 8),
        ],
        "textDocument/typeDefinition": loc(B, 0, 7, 12),
        "textDocument/references": [
          loc(A, 2, 2, 7),
          loc(B, 1, 5, 10),
          loc(A, 0, 3, 8),
          loc(B, 0, 7, 12),
          loc(A, 2, 2, 7),
        ],
        "textDocument/hover": {
          contents: { kind: "markdown", value: "```rust\nfn alpha()\n```\n\nCalls nothing.  \n" },
          range: lspRange(2, 2, 7),
        },
        "textDocument/documentSymbol": [
          {
            name: "beta",
            kind: 12,
            range: r(1, 0, 3, 1),
            selectionRange: r(1, 0, 3, 1),
            children: [
              {
                name: "inner",
                kind: 13,
                range: lspRange(2, 2, 9),
                selectionRange: lspRange(2, 2, 9),
              },
            ],
          },
          {
            name: "alpha",
            kind: 12,
            range: lspRange(0, 0, 13),
            selectionRange: lspRange(0, 0, 13),
          },
        ],
        "workspace/symbol": [
          { ...sym("Gamma", 23, B, lspRange(0, 7, 12)), containerName: "" },
          sym("beta", 12, A, lspRange(1, 3, 7)),
          { ...sym("alpha", 12, A, lspRange(0, 3, 8)), containerName: "mod" },
        ],
      },
      publish_on_sync: [
        { ...UNUSED, ...UNUSED_OUT },
        {
          message: "bad call",
          severity: 1,
          line: 2,
          character: 2,
          end_character: 7,
          code: 42,
          source: "fake",
        },
      ],
      pull_diagnostics: [
        { ...UNUSED, ...UNUSED_OUT },
        { message: "hint here", severity: 4, line: 1, character: 3, end_character: 7 },
      ],
    },
    { extensions: { fake: "fake" } },
  ),
  flat.server(
    {
      responses: {
        "textDocument/documentSymbol": [
          sym("inner", 13, FLAT, lspRange(2, 2, 9)),
          sym("beta", 12, FLAT, r(1, 0, 3, 1)),
          sym("alpha", 12, FLAT, lspRange(0, 0, 13)),
        ],
      },
    },
    { extensions: { flat: "fake" } },
  ),
];

let bridge: BridgeHandle;
beforeAll(async () => {
  // startBridge lists the tools, so the SDK validates every result against its output schema
  ({ bridge } = await bridgeFor({ ws, servers: SERVERS }));
});
afterAll(closeBridgesAndTempDirs);

const AT = { file: "a.fake", line: 3, column: 3 };
const EXPECTED_LOCATIONS = {
  locations: [
    { file: "a.fake", ...range(1, 4, 1, 9) },
    { file: "b.fake", ...range(1, 8, 1, 13) },
    { file: outsideFile, ...range(1, 1, 1, 4) },
    { uri: SCRATCH, ...range(2, 1, 2, 5) },
  ],
  total: 4,
};

describe("location tools", () => {
  test("definition: deduplicated, canonical order (workspace, outside, non-file), exact ranges", async () => {
    const r = await bridge.call("definition", AT);
    expect(r.isError).toBe(false);
    expect(r.structured).toEqual(EXPECTED_LOCATIONS);
    expect(JSON.parse(r.text)).toEqual(r.structured);
  });

  test("declaration answered with LocationLinks normalizes exactly like Locations", async () => {
    const def = await bridge.call("definition", AT);
    const decl = await bridge.call("declaration", AT);
    expect(decl.structured).toEqual(EXPECTED_LOCATIONS);
    expect(decl.text).toBe(def.text);
  });

  test("type_definition answered with a single Location", async () => {
    const r = await bridge.call("type_definition", AT);
    expect(r.structured).toEqual({
      locations: [{ file: "b.fake", ...range(1, 8, 1, 13) }],
      total: 1,
    });
  });

  test("references: paging with limit/offset, total and next_offset", async () => {
    const all = await bridge.call("references", { file: "a.fake", line: 3, symbol: "alpha" });
    expect(all.structured).toEqual({
      locations: [
        { file: "a.fake", ...range(1, 4, 1, 9) },
        { file: "a.fake", ...range(3, 3, 3, 8) },
        { file: "b.fake", ...range(1, 8, 1, 13) },
        { file: "b.fake", ...range(2, 6, 2, 11) },
      ],
      total: 4,
    });
    const first = await bridge.call("references", { ...AT, limit: 2 });
    expect(first.structured).toEqual({
      locations: (all.structured.locations as unknown[]).slice(0, 2),
      total: 4,
      next_offset: 2,
    });
    const last = await bridge.call("references", { ...AT, limit: 2, offset: 2 });
    expect(last.structured).toEqual({
      locations: (all.structured.locations as unknown[]).slice(2),
      total: 4,
    });
    const sent = fake.requests("textDocument/references").map((q) => q.params);
    expect(sent[0]).toEqual({
      textDocument: { uri: A },
      position: { line: 2, character: 2 },
      context: { includeDeclaration: true },
    });
  });

  test("implementation the server does not offer: ServerLacksCapability", async () => {
    const r = await bridge.call("implementation", AT);
    expect(r.structured.code).toBe("ServerLacksCapability");
    expect(r.structured.details).toEqual({ server: "fake", method: "textDocument/implementation" });
    expect(fake.requests("textDocument/implementation")).toEqual([]);
  });
});

describe("hover and symbols", () => {
  test("hover: markdown becomes plain text, with the range", async () => {
    const r = await bridge.call("hover", AT);
    expect(r.structured).toEqual({
      text: "fn alpha()\n\nCalls nothing.",
      range: range(3, 3, 3, 8),
    });
  });

  test("document_symbols: hierarchical and flat answers give the same tree", async () => {
    const tree = [
      {
        name: "alpha",
        kind: "function",
        range: range(1, 1, 1, 14),
        selection: range(1, 1, 1, 14),
        children: [],
      },
      {
        name: "beta",
        kind: "function",
        range: range(2, 1, 4, 2),
        selection: range(2, 1, 4, 2),
        children: [
          {
            name: "inner",
            kind: "variable",
            range: range(3, 3, 3, 10),
            selection: range(3, 3, 3, 10),
            children: [],
          },
        ],
      },
    ];
    const hier = await bridge.call("document_symbols", { file: "a.fake" });
    expect(hier.structured).toEqual({ file: "a.fake", symbols: tree, total: 2 });
    const fromFlat = await bridge.call("document_symbols", { file: "a.flat" });
    expect(fromFlat.structured).toEqual({ file: "a.flat", symbols: tree, total: 2 });
    const paged = await bridge.call("document_symbols", { file: "a.fake", limit: 1, offset: 1 });
    expect(paged.structured).toEqual({ file: "a.fake", symbols: tree.slice(1), total: 2 });
  });

  test("workspace_symbols: canonical order, kinds by name, container only when non-empty", async () => {
    const r = await bridge.call("workspace_symbols", { server: "fake", query: "a" });
    expect(r.structured).toEqual({
      symbols: [
        { name: "alpha", kind: "function", container: "mod", file: "a.fake", ...range(1, 4, 1, 9) },
        { name: "beta", kind: "function", file: "a.fake", ...range(2, 4, 2, 8) },
        { name: "Gamma", kind: "struct", file: "b.fake", ...range(1, 8, 1, 13) },
      ],
      total: 3,
    });
  });
});

describe("argument bounds", () => {
  test("after tools/list, a tool error still arrives as a result with the SPEC §4.6 envelope", async () => {
    const r = await bridge.call("hover", { file: "missing.fake", line: 1, column: 1 });
    expect(r.isError).toBe(true);
    expect(Object.keys(r.structured).sort()).toEqual(["code", "details", "hint", "message"]);
    expect(r.structured.code).toBe("FileNotFound");
    expect(JSON.parse(r.text)).toEqual(r.structured);
  });

  test("limit above max_limit is InvalidArgument naming the bound", async () => {
    const r = await bridge.call("references", { ...AT, limit: 201 });
    expect(r.structured.code).toBe("InvalidArgument");
    expect(String(r.structured.message)).toContain("1..200");
    expect(r.structured.details).toEqual({ limit: 201, max_limit: 200 });
  });

  test("workspace_symbols query of length 0 or 129 is InvalidArgument naming 1..128", async () => {
    for (const query of ["", "q".repeat(129)]) {
      const r = await bridge.call("workspace_symbols", { query });
      expect(r.structured.code).toBe("InvalidArgument");
      expect(String(r.structured.message)).toContain("1..128");
      expect(r.structured.details).toEqual({ length: query.length, max_query_length: 128 });
    }
    const ok = await bridge.call("workspace_symbols", { server: "fake", query: "q".repeat(128) });
    expect(ok.isError).toBe(false);
  });
});

describe("diagnostics", () => {
  test("push and pull merged per diagnostic, with channels", async () => {
    const r = await bridge.call("diagnostics", { file: "a.fake" });
    expect(r.structured).toEqual(
      diagnosticsFor(
        ["a.fake"],
        [
          {
            ...diagnosticAt("pull", "a.fake", [1, 4, 1, 9], "warning", UNUSED_OUT),
            channels: ["pull", "push"],
          },
          diagnosticAt("pull", "a.fake", [2, 4, 2, 8], "hint", { message: "hint here" }),
          diagnosticAt("push", "a.fake", [3, 3, 3, 8], "error", {
            code: "42",
            source: "fake",
            message: "bad call",
          }),
        ],
      ),
    );
  });
});

describe("determinism", () => {
  test("the same query gives the same bytes, twice and across a bridge restart", async () => {
    const calls: [string, Record<string, unknown>][] = [
      ["workspace_symbols", { server: "fake", query: "a" }],
      ["definition", AT],
      ["document_symbols", { file: "a.flat" }],
      ["diagnostics", { file: "a.fake" }],
    ];
    const before: string[] = [];
    for (const [tool, args] of calls) {
      const once = await bridge.call(tool, args);
      const twice = await bridge.call(tool, args);
      expect(once.isError).toBe(false);
      expect(twice.text).toBe(once.text);
      before.push(once.text);
    }
    await bridge.close();
    ({ bridge } = await bridgeFor({ ws, servers: SERVERS }));
    for (const [i, [tool, args]] of calls.entries()) {
      const again = await bridge.call(tool, args);
      expect(again.text).toBe(before[i] as string);
    }
  });
});
