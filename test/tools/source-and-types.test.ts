/**
 * symbol_source and type_hierarchy (SPEC §4.1, §4.3) against canned fake answers: a symbol
 * by dotted path or position, its text over the server's range (columns converted across an
 * astral character), context lines, overloads AmbiguousSymbol, a near name in
 * SymbolNotFound's hint; types one level, canonical, paged. Fault paths: no provider or
 * MethodNotFound → ServerLacksCapability, an answer over max_result_bytes → ResultTooLarge,
 * malformed answers → a typed error or an empty answer, never a crash.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bridgeFor, FakeProbe, lspRange, workspace } from "../fake-server/harness.ts";
import { type BridgeHandle, closeBridgesAndTempDirs } from "../support/bridge.ts";
import { range } from "../support/normalize-context.ts";

const LINES = [
  "class Outer {", // 0
  "  class Inner {", // 1
  '    depth() { return "😀"; }', // 2
  "  }", // 3
  "  pick(a: string): string;", // 4
  "  pick(a: unknown) { return a; }", // 5
  "}", // 6
  `big = "${"x".repeat(1200)}";`, // 7
];
const SOURCE = `${LINES.join("\n")}\n`;
const ws = workspace({ "src.fake": SOURCE });

/** A symbol over [line, from]–[endLine, to] (UTF-16), named at `sel`. */
function sym(
  name: string,
  kind: number,
  [line, from, endLine, to]: number[],
  sel: number[],
  children: unknown[] = [],
) {
  const at = (l: number, c: number) => ({ line: l, character: c });
  return {
    name,
    kind,
    range: { start: at(line as number, from as number), end: at(endLine as number, to as number) },
    selectionRange: lspRange(sel[0] as number, sel[1] as number, sel[2] as number),
    children,
  };
}
const len = (i: number) => (LINES[i] as string).length;
const SYMBOLS = [
  sym(
    "Outer",
    5,
    [0, 0, 6, 1],
    [0, 6, 11],
    [
      sym("Inner", 5, [1, 2, 3, 3], [1, 8, 13], [sym("depth", 6, [2, 4, 2, len(2)], [2, 4, 9])]),
      sym("pick", 6, [4, 2, 4, len(4)], [4, 2, 6]),
      sym("pick", 6, [5, 2, 5, len(5)], [5, 2, 6]),
    ],
  ),
  sym("big", 13, [7, 0, 7, len(7)], [7, 0, 3]),
];

function typeItem(name: string, line: number, from: number, to: number, file = "src.fake") {
  return {
    name,
    kind: 5,
    uri: ws.uri(file),
    range: lspRange(line, 0, len(line)),
    selectionRange: lspRange(line, from, to),
  };
}
const INNER = typeItem("Inner", 1, 8, 13);
const OUTER = typeItem("Outer", 0, 6, 11);
const MANY = Array.from({ length: 60 }, (_, i) => typeItem(`T${i}`, 7, 0, 3));

const fake = new FakeProbe("fake");
const plain = new FakeProbe("plain");
const bad = new FakeProbe("bad");
const many = new FakeProbe("many");
const SERVERS = [
  fake.server({
    capabilities: {
      textDocumentSync: 1,
      documentSymbolProvider: true,
      typeHierarchyProvider: true,
    },
    responses: {
      "textDocument/documentSymbol": SYMBOLS,
      "textDocument/prepareTypeHierarchy": [INNER],
      // twice the same, and entries that are no items
      "typeHierarchy/supertypes": [OUTER, 7, { name: "x" }, OUTER, typeItem("A", 0, 0, 5)],
    },
    error_on: { "typeHierarchy/subtypes": { code: -32601, message: "unhandled" } },
  }),
  plain.server({ capabilities: { textDocumentSync: 1 } }, { extensions: { plain: "fake" } }),
  bad.server(
    {
      capabilities: {
        textDocumentSync: 1,
        documentSymbolProvider: true,
        typeHierarchyProvider: true,
      },
      responses: {
        "textDocument/documentSymbol": [{ name: 3 }, "junk", { name: "ok", range: "nowhere" }],
        "textDocument/prepareTypeHierarchy": { not: "a list" },
      },
    },
    { extensions: { bad: "fake" } },
  ),
  many.server(
    {
      capabilities: {
        textDocumentSync: 1,
        documentSymbolProvider: true,
        typeHierarchyProvider: true,
      },
      error_on: { "textDocument/documentSymbol": { code: -32603, message: "boom" } },
      responses: {
        "textDocument/prepareTypeHierarchy": [INNER],
        "typeHierarchy/subtypes": MANY,
      },
    },
    { extensions: { many: "fake" } },
  ),
];

let bridge: BridgeHandle;
beforeAll(async () => {
  for (const ext of ["plain", "bad", "many"]) ws.write(`a.${ext}`, "x\n");
  ({ bridge } = await bridgeFor({ ws, servers: SERVERS, bridge: { max_result_bytes: 1024 } }));
});
afterAll(closeBridgesAndTempDirs);

describe("symbol_source", () => {
  test("by dotted path: the text over the server's range, code points across the emoji", async () => {
    const r = await bridge.call("symbol_source", { file: "src.fake", symbol: "Outer.Inner.depth" });
    expect(r.structured).toEqual({
      file: "src.fake",
      name: "depth",
      kind: "method",
      container: "Outer.Inner",
      // UTF-16 end 28 is code point column 28 (27 code points)
      range: range(3, 5, 3, 28),
      text: 'depth() { return "😀"; }',
    });
  });

  test("at a position: the innermost symbol holding it; context lines around", async () => {
    const r = await bridge.call("symbol_source", {
      file: "src.fake",
      line: 3,
      symbol: "return",
      context: 1,
    });
    expect(r.structured).toEqual({
      file: "src.fake",
      name: "depth",
      kind: "method",
      container: "Outer.Inner",
      range: range(3, 5, 3, 28),
      text: LINES.slice(1, 4).join("\n"),
      text_range: range(2, 1, 4, 4),
    });
    const outer = await bridge.call("symbol_source", { file: "src.fake", line: 7, column: 1 });
    expect(outer.structured.name).toBe("Outer");
    expect(outer.structured.text).toBe(LINES.slice(0, 7).join("\n"));
  });

  test("overloads: AmbiguousSymbol with both candidates; a miss names near names", async () => {
    const amb = await bridge.call("symbol_source", { file: "src.fake", symbol: "Outer.pick" });
    expect(amb.structured.code).toBe("AmbiguousSymbol");
    expect(amb.structured.details).toEqual({
      file: "src.fake",
      symbol: "Outer.pick",
      count: 2,
      candidates: [
        { name: "pick", kind: "method", container: "Outer", line: 5, column: 3 },
        { name: "pick", kind: "method", container: "Outer", line: 6, column: 3 },
      ],
    });
    const miss = await bridge.call("symbol_source", { file: "src.fake", symbol: "Inner.Depth" });
    expect(miss.structured.code).toBe("SymbolNotFound");
    expect(miss.structured.hint).toEndWith("near: `Outer.Inner.depth`");
    const nowhere = await bridge.call("symbol_source", { file: "src.fake", line: 9, column: 1 });
    expect(nowhere.structured.code).toBe("SymbolNotFound");
    expect(nowhere.structured.details).toEqual({ file: "src.fake", line: 9, column: 1 });
  });

  test("over max_result_bytes: ResultTooLarge, also when context makes it so", async () => {
    const r = await bridge.call("symbol_source", { file: "src.fake", symbol: "big" });
    expect(r.structured.code).toBe("ResultTooLarge");
    expect(r.structured.details).toMatchObject({ count: 1, max_bytes: 1024 });
    expect(r.structured.hint).toContain("context");
    const wide = await bridge.call("symbol_source", {
      file: "src.fake",
      symbol: "pick",
      line: 6,
      context: 2,
    });
    expect(wide.structured.code).toBe("ResultTooLarge");
  });

  test("bad arguments are InvalidArgument", async () => {
    for (const args of [
      { file: "src.fake" },
      { file: "src.fake", symbol: "depth", context: 51 },
      { file: "src.fake", symbol: "depth", context: -1 },
      { file: "src.fake", column: 2 },
      { file: "src.fake", symbol: "" },
    ]) {
      const r = await bridge.call("symbol_source", args);
      expect([args, r.structured.code]).toEqual([args, "InvalidArgument"]);
    }
  });

  test("no document symbols: ServerLacksCapability; malformed: SymbolNotFound; failed: ServerError", async () => {
    const lacks = await bridge.call("symbol_source", { file: "a.plain", symbol: "x" });
    expect(lacks.structured.code).toBe("ServerLacksCapability");
    expect(lacks.structured.details).toEqual({
      server: "plain",
      method: "textDocument/documentSymbol",
    });
    const junk = await bridge.call("symbol_source", { file: "a.bad", symbol: "ok" });
    expect(junk.structured.code).toBe("SymbolNotFound");
    const failed = await bridge.call("symbol_source", { file: "a.many", symbol: "T1" });
    expect(failed.structured.code).toBe("ServerError");
  });
});

describe("type_hierarchy", () => {
  test("supertypes: the prepared item and each type once, canonical, at its name", async () => {
    const r = await bridge.call("type_hierarchy", {
      file: "src.fake",
      symbol: "Inner",
      direction: "supertypes",
    });
    const at = (name: string, l: number, c: number, e: number) => ({
      name,
      kind: "class",
      file: "src.fake",
      ...range(l, c, l, e),
    });
    expect(r.structured).toEqual({
      item: at("Inner", 2, 9, 14),
      types: [at("A", 1, 1, 6), at("Outer", 1, 7, 12)],
      total: 2,
    });
    const prepared = fake.requests("textDocument/prepareTypeHierarchy").at(-1)?.params;
    expect(prepared).toEqual({
      textDocument: { uri: ws.uri("src.fake") },
      position: { line: 1, character: 8 },
    });
    // the item goes back to the server as it came
    expect(fake.requests("typeHierarchy/supertypes").at(-1)?.params).toEqual({ item: INNER });
  });

  test("paged; past max_result_bytes ResultTooLarge with a limit that fits", async () => {
    const args = { file: "a.many", line: 1, column: 1, direction: "subtypes" };
    const page = await bridge.call("type_hierarchy", { ...args, limit: 2, offset: 1 });
    expect((page.structured.types as { name: string }[]).map((t) => t.name)).toEqual(["T1", "T10"]);
    expect([page.structured.total, page.structured.next_offset]).toEqual([60, 3]);
    const all = await bridge.call("type_hierarchy", args);
    expect(all.structured.code).toBe("ResultTooLarge");
    const limit = (all.structured.details as { limit: number }).limit;
    expect(limit).toBeGreaterThan(0);
    const fits = await bridge.call("type_hierarchy", { ...args, limit });
    expect(fits.isError).toBe(false);
  });

  test("no provider, or MethodNotFound for the direction: ServerLacksCapability", async () => {
    const plainR = await bridge.call("type_hierarchy", {
      file: "a.plain",
      line: 1,
      column: 1,
      direction: "subtypes",
    });
    expect(plainR.structured.details).toEqual({
      server: "plain",
      method: "textDocument/prepareTypeHierarchy",
    });
    const sub = await bridge.call("type_hierarchy", {
      file: "src.fake",
      symbol: "Inner",
      direction: "subtypes",
    });
    expect(sub.structured.code).toBe("ServerLacksCapability");
    expect(sub.structured.details).toEqual({ server: "fake", method: "typeHierarchy/subtypes" });
  });

  test("a malformed prepare answer is no item", async () => {
    const r = await bridge.call("type_hierarchy", {
      file: "a.bad",
      line: 1,
      column: 1,
      direction: "supertypes",
    });
    expect(r.structured).toEqual({ item: null, types: [], total: 0 });
  });

  test("direction is required and checked", async () => {
    const at = { file: "src.fake", line: 1, column: 1 };
    expect((await bridge.call("type_hierarchy", at)).structured.code).toBe("InvalidArgument");
    const up = await bridge.call("type_hierarchy", { ...at, direction: "up" });
    expect(up.structured.code).toBe("InvalidArgument");
  });
});
