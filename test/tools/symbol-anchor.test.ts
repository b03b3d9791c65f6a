/**
 * Positions by symbol name, without a line (SPEC §4.2): found among the file's document
 * symbols by name or dotted path, at the selection range's start; a duplicate name is
 * AmbiguousSymbol listing the candidates, a missing one SymbolNotFound. With `line`, the
 * anchor means what it always meant; a name or path not on that line names the symbol
 * whose name is there.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bridgeFor, FakeProbe, lspRange, workspace } from "../fake-server/harness.ts";
import { type BridgeHandle, closeBridgesAndTempDirs } from "../support/bridge.ts";

const SOURCE = [
  "class Box {", // 0
  "  size() {}", // 1
  "}", // 2
  "class Crate {", // 3
  "  size() {}", // 4
  "  /* 😀😀 */ fill() {}", // 5
  "}", // 6
  "export function pick(a: string): string;", // 7
  "export function pick(a: unknown) {}", // 8
  "func (b *Box) grow() {}", // 9
].join("\n");
const ws = workspace({ "box.fake": SOURCE });

function sym(name: string, kind: number, line: number, from: number, to: number, children = []) {
  return {
    name,
    kind,
    range: lspRange(line, 0, to + 3),
    selectionRange: lspRange(line, from, to),
    children,
  };
}

const SYMBOLS = [
  { ...sym("Box", 5, 0, 6, 9), children: [sym("size", 6, 1, 2, 6)] },
  // UTF-16 columns from the server: `fill` is after two astral emoji
  { ...sym("Crate", 5, 3, 6, 11), children: [sym("size", 6, 4, 2, 6), sym("fill", 6, 5, 13, 17)] },
  // typescript-language-server's overloads: the first selection is the name, later ones
  // start at `export` (the whole declaration)
  sym("pick", 12, 7, 16, 20),
  sym("pick", 12, 8, 0, 35),
  // gopls: a pointer-receiver method at the top level, selection at the name
  sym("(*Box).grow", 6, 9, 14, 18),
];

const fake = new FakeProbe("fake");
let bridge: BridgeHandle;
beforeAll(async () => {
  ({ bridge } = await bridgeFor({
    ws,
    servers: [
      fake.server({
        capabilities: {
          textDocumentSync: 1,
          hoverProvider: true,
          documentSymbolProvider: true,
          definitionProvider: true,
        },
        responses: {
          "textDocument/documentSymbol": SYMBOLS,
          "textDocument/hover": { contents: "size(): number" },
          "textDocument/definition": [],
        },
      }),
    ],
  }));
});
afterAll(closeBridgesAndTempDirs);

const lastPosition = (method: string) =>
  (fake.requests(method).at(-1)?.params as { position: unknown } | undefined)?.position;

describe("symbol without line", () => {
  test("a dotted path resolves the method at its selection start", async () => {
    const r = await bridge.call("hover", { file: "box.fake", symbol: "Box.size" });
    expect(r.isError).toBe(false);
    expect(r.structured.text).toBe("size(): number");
    expect(lastPosition("textDocument/hover")).toEqual({ line: 1, character: 2 });
    await bridge.call("definition", { file: "box.fake", symbol: "Crate.size" });
    expect(lastPosition("textDocument/definition")).toEqual({ line: 4, character: 2 });
  });

  test("a unique bare name, converted exactly (UTF-16 server, code-point client)", async () => {
    const r = await bridge.call("definition", { file: "box.fake", symbol: "fill" });
    expect(r.isError).toBe(false);
    expect(lastPosition("textDocument/definition")).toEqual({ line: 5, character: 13 });
  });

  test("a duplicated bare name: AmbiguousSymbol listing both, in canonical order", async () => {
    const r = await bridge.call("hover", { file: "box.fake", symbol: "size" });
    expect(r.isError).toBe(true);
    expect(r.structured.code).toBe("AmbiguousSymbol");
    expect(r.structured.details).toEqual({
      file: "box.fake",
      symbol: "size",
      count: 2,
      candidates: [
        { name: "size", kind: "method", container: "Box", line: 2, column: 3 },
        { name: "size", kind: "method", container: "Crate", line: 5, column: 3 },
      ],
    });
    expect(String(r.structured.hint)).toContain("dotted path");
  });

  test("candidates point at the name, also where the server's selection starts before it", async () => {
    const r = await bridge.call("hover", { file: "box.fake", symbol: "pick" });
    expect(r.structured.code).toBe("AmbiguousSymbol");
    expect((r.structured.details as { candidates: unknown }).candidates).toEqual([
      { name: "pick", kind: "function", line: 8, column: 17 },
      { name: "pick", kind: "function", line: 9, column: 17 },
    ]);
  });

  test("a method as its language writes it: Type.method for gopls's (*Type).method", async () => {
    for (const symbol of ["Box.grow", "(*Box).grow", "grow"]) {
      const r = await bridge.call("definition", { file: "box.fake", symbol });
      expect(r.isError).toBe(false);
      expect(lastPosition("textDocument/definition")).toEqual({ line: 9, character: 14 });
    }
  });

  test("no such symbol: SymbolNotFound", async () => {
    for (const symbol of ["Bin", "Box.fill", "box.size"]) {
      const r = await bridge.call("hover", { file: "box.fake", symbol });
      expect(r.structured.code).toBe("SymbolNotFound");
      expect(r.structured.details).toEqual({ file: "box.fake", symbol });
    }
  });

  test("with line, the symbol is text on that line, as before", async () => {
    const r = await bridge.call("hover", { file: "box.fake", line: 5, symbol: "size" });
    expect(r.isError).toBe(false);
    expect(lastPosition("textDocument/hover")).toEqual({ line: 4, character: 2 });
    const wrong = await bridge.call("hover", { file: "box.fake", line: 1, symbol: "Box.size" });
    expect(wrong.structured.code).toBe("SymbolNotOnLine");
  });

  test("with line, a path not on that line names the symbol whose name is there", async () => {
    // a candidate's `line`, as AmbiguousSymbol's hint says to pass it
    for (const [line, symbol, at] of [
      [5, "Crate.size", { line: 4, character: 2 }],
      [10, "Box.grow", { line: 9, character: 14 }],
    ] as const) {
      const r = await bridge.call("hover", { file: "box.fake", line, symbol });
      expect(r.isError).toBe(false);
      expect(lastPosition("textDocument/hover")).toEqual(at);
    }
    const elsewhere = await bridge.call("hover", {
      file: "box.fake",
      line: 2,
      symbol: "Crate.size",
    });
    expect(elsewhere.structured.code).toBe("SymbolNotOnLine");
  });

  test("argument combinations that cannot make a position are InvalidArgument", async () => {
    for (const args of [
      { file: "box.fake" },
      { file: "box.fake", column: 3 },
      { file: "box.fake", symbol: "size", occurrence: 2 },
      { file: "box.fake", symbol: "" },
      { file: "box.fake", symbol: "x".repeat(257) },
      { file: "box.fake", line: 2, column: 3, symbol: "size" },
    ]) {
      const r = await bridge.call("hover", args);
      expect(r.structured.code).toBe("InvalidArgument");
    }
    // `column` alone is told what it lacks
    const column = await bridge.call("hover", { file: "box.fake", column: 3 });
    expect(column.structured.message).toBe("`column` needs `line`");
  });
});
