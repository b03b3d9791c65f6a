import { describe, expect, test } from "bun:test";
import type {
  DocumentSymbol,
  SymbolInformation,
  WorkspaceSymbol,
} from "vscode-languageserver-protocol";
import { canonicalJson } from "../../../src/normalize/cap.ts";
import {
  countSymbols,
  normalizeDocumentSymbols,
  normalizeWorkspaceSymbols,
  symbolKindName,
} from "../../../src/normalize/symbols.ts";
import { fileUri, fixtureContext, r, range, shuffled } from "../../support/normalize-context.ts";

const TEXT = "class A {\n  m() {}\n  n() {}\n}\nfunction f() {}\n";
const URI = fileUri("s.ts");
const FILES = { "s.ts": TEXT, "a.ts": "x\nfoo();\n", "b.ts": "b\n" };
const { ctx } = fixtureContext(FILES);

function docSymbol(
  name: string,
  kind: number,
  range: DocumentSymbol["range"],
  children: DocumentSymbol[] = [],
): DocumentSymbol {
  return { name, kind: kind as DocumentSymbol["kind"], range, selectionRange: range, children };
}

function info(name: string, kind: number, range: DocumentSymbol["range"]): SymbolInformation {
  return {
    name,
    kind: kind as SymbolInformation["kind"],
    location: { uri: URI, range },
    containerName: "ignored",
  };
}

const EXPECTED_TREE = [
  {
    name: "A",
    kind: "class",
    range: { line: 1, column: 1, end_line: 4, end_column: 2 },
    selection: { line: 1, column: 1, end_line: 4, end_column: 2 },
    children: [
      {
        name: "m",
        kind: "method",
        range: { line: 2, column: 3, end_line: 2, end_column: 9 },
        selection: { line: 2, column: 3, end_line: 2, end_column: 9 },
        children: [],
      },
      {
        name: "n",
        kind: "method",
        range: { line: 3, column: 3, end_line: 3, end_column: 9 },
        selection: { line: 3, column: 3, end_line: 3, end_column: 9 },
        children: [],
      },
    ],
  },
  {
    name: "f",
    kind: "function",
    range: { line: 5, column: 1, end_line: 5, end_column: 16 },
    selection: { line: 5, column: 1, end_line: 5, end_column: 16 },
    children: [],
  },
];

describe("normalizeDocumentSymbols", () => {
  test("hierarchical input: children sorted by position at every level", () => {
    const input = [
      docSymbol("f", 12, r(4, 0, 4, 15)),
      docSymbol("A", 5, r(0, 0, 3, 1), [
        docSymbol("n", 6, r(2, 2, 2, 8)),
        docSymbol("m", 6, r(1, 2, 1, 8)),
      ]),
    ];
    const tree = normalizeDocumentSymbols(input, URI, ctx);
    expect(tree).toEqual(EXPECTED_TREE);
    expect(countSymbols(tree)).toBe(4);
  });

  test("flat SymbolInformation becomes the same tree by containment", () => {
    const flat = [
      info("m", 6, r(1, 2, 1, 8)),
      info("f", 12, r(4, 0, 4, 15)),
      info("A", 5, r(0, 0, 3, 1)),
      info("n", 6, r(2, 2, 2, 8)),
    ];
    for (const seed of [1, 2, 3, 4]) {
      expect(normalizeDocumentSymbols(shuffled(flat, seed), URI, ctx)).toEqual(EXPECTED_TREE);
    }
  });

  test("flat symbols with identical ranges stay siblings", () => {
    const tree = normalizeDocumentSymbols(
      [info("y", 13, r(4, 0, 4, 15)), info("x", 12, r(4, 0, 4, 15))],
      URI,
      ctx,
    );
    expect(tree.map((s) => [s.name, s.children.length])).toEqual([
      ["x", 0],
      ["y", 0],
    ]);
  });

  test("detail and selection range are kept, in a fixed key order", () => {
    const symbol: DocumentSymbol = {
      name: "A",
      detail: "class A",
      kind: 5,
      range: r(0, 0, 3, 1),
      selectionRange: r(0, 6, 0, 7),
    };
    expect(canonicalJson(normalizeDocumentSymbols([symbol], URI, ctx))).toBe(
      '[{"name":"A","kind":"class","detail":"class A",' +
        '"range":{"line":1,"column":1,"end_line":4,"end_column":2},' +
        '"selection":{"line":1,"column":7,"end_line":1,"end_column":8},"children":[]}]',
    );
  });

  test("empty results", () => {
    expect(normalizeDocumentSymbols(null, URI, ctx)).toEqual([]);
    expect(normalizeDocumentSymbols(undefined, URI, ctx)).toEqual([]);
    expect(countSymbols([])).toBe(0);
  });
});

describe("symbolKindName", () => {
  test("lower-case names, unknown outside 1..26", () => {
    expect(symbolKindName(1)).toBe("file");
    expect(symbolKindName(12)).toBe("function");
    expect(symbolKindName(22)).toBe("enum_member");
    expect(symbolKindName(23)).toBe("struct");
    expect(symbolKindName(26)).toBe("type_parameter");
    expect(symbolKindName(0)).toBe("unknown");
    expect(symbolKindName(27)).toBe("unknown");
    expect(symbolKindName(1.5)).toBe("unknown");
  });
});

describe("normalizeWorkspaceSymbols", () => {
  const input: (SymbolInformation | WorkspaceSymbol)[] = [
    {
      name: "Zed",
      kind: 23,
      location: { uri: fileUri("b.ts"), range: r(0, 0, 0, 1) },
      containerName: "ns",
    },
    { name: "alpha", kind: 12, location: { uri: fileUri("a.ts"), range: r(1, 0, 1, 3) } },
    { name: "beta", kind: 12, location: { uri: fileUri("a.ts") } },
    { name: "Alpha", kind: 12, location: { uri: fileUri("a.ts"), range: r(1, 0, 1, 3) } },
    { name: "alpha", kind: 12, location: { uri: fileUri("a.ts"), range: r(1, 0, 1, 3) } },
    { name: "ext", kind: 13, location: { uri: "file:///abs/lib.ts", range: r(0, 0, 0, 3) } },
  ];
  const expected = [
    { name: "beta", kind: "function", file: "a.ts" },
    {
      name: "Alpha",
      kind: "function",
      file: "a.ts",
      ...range(2, 1, 2, 4),
    },
    {
      name: "alpha",
      kind: "function",
      file: "a.ts",
      ...range(2, 1, 2, 4),
    },
    {
      name: "Zed",
      kind: "struct",
      container: "ns",
      file: "b.ts",
      ...range(1, 1, 1, 2),
    },
    {
      name: "ext",
      kind: "variable",
      file: "/abs/lib.ts",
      ...range(1, 1, 1, 4),
    },
  ];

  test("canonical order, duplicates dropped, range-less symbols without range fields", () => {
    expect(normalizeWorkspaceSymbols(input as SymbolInformation[], ctx)).toEqual(expected);
  });

  test("same bytes whatever the input order", () => {
    const bytes = canonicalJson(expected);
    for (const seed of [7, 8, 9]) {
      const out = normalizeWorkspaceSymbols(shuffled(input, seed) as SymbolInformation[], ctx);
      expect(canonicalJson(out)).toBe(bytes);
    }
  });

  test("empty results", () => {
    expect(normalizeWorkspaceSymbols(null, ctx)).toEqual([]);
  });
});
