/**
 * symbol_source and type_hierarchy (SPEC §4.1, §4.3) on the real servers through the
 * compiled binary, each answer compared with the same server driven alone
 * (test/parity/direct.ts): a symbol by the name or path its language writes (Go methods,
 * generic receivers and the package, Rust impl blocks as written, TypeScript namespaces,
 * Python and C++ nested classes, C++ out-of-line definitions), or by a path with its line,
 * has the range of its documentSymbol (a Go type's from `type`) and the file's text over
 * that range, byte for byte; overloads and repeated names are AmbiguousSymbol; type_hierarchy gives gopls' supertypes and subtypes
 * as gopls does, and ServerLacksCapability on the servers without it (clangd 14 offers only
 * its older extension and answers MethodNotFound). The bridge runs in UTF-16 columns, so
 * its positions are the server's plus one.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { DocumentSymbol, Range, TypeHierarchyItem } from "vscode-languageserver-protocol";
import { startDirect } from "../parity/direct.ts";
import type { LspClient } from "../parity/lsp-client.ts";
import type { BridgeHandle } from "../support/bridge.ts";
import { findGopls } from "../support/built-servers.ts";
import { fails, ok, requiredServer, startRealBridge } from "../support/real-bridge.ts";
import {
  copyFixture,
  findClangd,
  findPyright,
  findRustAnalyzer,
  findTypescriptLanguageServer,
  materializeCFixture,
  type RealServer,
} from "../support/real-servers.ts";

/** A symbol asked by `symbol` (or at a position), and its path in the server's own tree. */
interface SourceCase {
  file: string;
  args: Record<string, unknown>;
  /** the names from the top of the server's documentSymbol tree down to the symbol */
  path: string[];
  /** the answer starts at this keyword, before the server's range on its first line */
  keyword?: string;
}

interface AmbiguousCase {
  file: string;
  symbol: string;
  /** each candidate's container (or "") and line */
  candidates: [string, number][];
}

interface TypesCase {
  file: string;
  symbol: string;
  direction: "supertypes" | "subtypes";
  /** the names the answer must hold (the whole answer is compared with the server's) */
  names: string[];
}

interface ServerCase {
  name: string;
  find: () => Promise<RealServer | null>;
  /** a fresh copy of the fixture, with `extra` files written into it */
  fixture: () => string;
  extra?: Record<string, string>;
  sources: SourceCase[];
  ambiguous: AmbiguousCase[];
  /** type_hierarchy: cases to compare, or the file of a ServerLacksCapability */
  types: TypesCase[] | { lacks: string };
}

/** LSP range → the bridge's range in UTF-16 columns (its positions plus one). */
function plusOne(r: Range) {
  return {
    line: r.start.line + 1,
    column: r.start.character + 1,
    end_line: r.end.line + 1,
    end_column: r.end.character + 1,
  };
}

/**
 * The text over an LSP range (UTF-16 characters, LSP's line terminators); with `context`,
 * the whole lines from `context` before to `context` after it, and the range they cover.
 */
function lspSlice(text: string, r: Range, context = 0) {
  const lines = text.split(/\r\n|\r|\n/);
  const starts = [0];
  for (const m of text.matchAll(/\r\n|\r|\n/g)) starts.push((m.index ?? 0) + m[0].length);
  const at = (p: Range["start"]) => (starts[p.line] ?? text.length) + p.character;
  if (context === 0) return { text: text.slice(at(r.start), at(r.end)) };
  const first = Math.max(0, r.start.line - context);
  const last = Math.min(lines.length - 1, r.end.line + context);
  const end = { line: last, character: (lines[last] as string).length };
  return {
    text: text.slice(at({ line: first, character: 0 }), at(end)),
    text_range: plusOne({ start: { line: first, character: 0 }, end }),
  };
}

/** The range from `keyword`, where it alone stands before the range on its first line. */
function fromKeyword(text: string, r: Range, keyword: string | undefined): Range {
  if (keyword === undefined) return r;
  const line = text.split(/\r\n|\r|\n/)[r.start.line] ?? "";
  const at = line.indexOf(keyword);
  expect(line.slice(0, at).trim()).toBe("");
  expect(line.slice(at + keyword.length, r.start.character).trim()).toBe("");
  expect(at).toBeLessThan(r.start.character);
  return { ...r, start: { line: r.start.line, character: at } };
}

function findPath(tree: DocumentSymbol[], path: string[]): DocumentSymbol {
  let nodes = tree;
  let found: DocumentSymbol | undefined;
  for (const name of path) {
    found = nodes.find((n) => n.name === name);
    if (!found) throw new Error(`no ${path.join(" › ")} (at ${name}) in the direct answer`);
    nodes = found.children ?? [];
  }
  return found as DocumentSymbol;
}

const LANGUAGE_IDS: Record<string, string> = {
  ".go": "go",
  ".rs": "rust",
  ".ts": "typescript",
  ".py": "python",
  ".cpp": "cpp",
};

/** One bridge and one directly driven server per case, each on its own fixture copy. */
function serverSuite(c: ServerCase, found: RealServer | null) {
  const state: { bridge?: BridgeHandle; direct?: LspClient; dirs: string[] } = { dirs: [] };
  const copy = (): string => {
    const dir = c.fixture();
    state.dirs.push(dir);
    for (const [file, text] of Object.entries(c.extra ?? {})) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    return dir;
  };
  let directRoot = "";
  const opened = new Set<string>();
  /** the direct server's view of `file`, opened once */
  const directUri = async (file: string): Promise<string> => {
    const uri = pathToFileURL(join(directRoot, file)).href;
    if (!opened.has(file)) {
      opened.add(file);
      const text = readFileSync(join(directRoot, file), "utf8");
      await state.direct?.open(uri, LANGUAGE_IDS[extname(file)] ?? "", text);
    }
    return uri;
  };
  beforeAll(async () => {
    if (!found) return;
    directRoot = copy();
    [state.bridge, state.direct] = await Promise.all([
      startRealBridge(copy(), found.config, { bridge: { column_unit: "utf-16" } }),
      startDirect(found.config, directRoot),
    ]);
  });
  afterAll(async () => {
    await Promise.allSettled([state.bridge?.close(), state.direct?.close()]);
    for (const d of state.dirs) rmSync(d, { recursive: true, force: true });
  });
  const bridge = () => state.bridge as BridgeHandle;
  const direct = () => state.direct as LspClient;

  test("symbol_source: the documentSymbol range and the file's text over it", async () => {
    for (const s of c.sources) {
      const r = await ok(bridge(), "symbol_source", { file: s.file, ...s.args });
      const context = (s.args.context as number | undefined) ?? 0;
      const uri = await directUri(s.file);
      const tree = await direct().request<DocumentSymbol[]>("textDocument/documentSymbol", {
        textDocument: { uri },
      });
      const node = findPath(tree, s.path);
      const text = readFileSync(join(directRoot, s.file), "utf8");
      const container = s.path.slice(0, -1).join(".");
      const { name, kind, range } = r;
      const { text: got, text_range } = r;
      const from = fromKeyword(text, node.range, s.keyword);
      expect({ case: s.args, name, container: r.container, range, text: got, text_range }).toEqual({
        case: s.args,
        name: node.name,
        container: container === "" ? undefined : container,
        range: plusOne(from),
        text_range: undefined,
        ...lspSlice(text, from, context),
      });
      expect(typeof kind).toBe("string");
    }
  });

  test("symbol_source: repeated names and overloads are AmbiguousSymbol", async () => {
    for (const a of c.ambiguous) {
      const e = await fails(bridge(), "symbol_source", { file: a.file, symbol: a.symbol });
      expect(e.code).toBe("AmbiguousSymbol");
      const candidates = (e.details?.candidates ?? []) as { container?: string; line: number }[];
      expect(candidates.map((k) => [k.container ?? "", k.line])).toEqual(a.candidates);
    }
  });

  const types = c.types;
  if ("lacks" in types) {
    test("type_hierarchy: ServerLacksCapability", async () => {
      const e = await fails(bridge(), "type_hierarchy", {
        file: types.lacks,
        line: 1,
        column: 1,
        direction: "supertypes",
      });
      expect(e.code).toBe("ServerLacksCapability");
      expect(e.details).toEqual({ server: c.name, method: "textDocument/prepareTypeHierarchy" });
    });
    return;
  }
  test("type_hierarchy: the server's own item and types, one level", async () => {
    for (const t of types) {
      const r = await ok(bridge(), "type_hierarchy", {
        file: t.file,
        symbol: t.symbol,
        direction: t.direction,
      });
      const uri = await directUri(t.file);
      const item = r.item as { line: number; column: number };
      const [prepared] = await direct().request<TypeHierarchyItem[]>(
        "textDocument/prepareTypeHierarchy",
        { textDocument: { uri }, position: { line: item.line - 1, character: item.column - 1 } },
      );
      if (!prepared) throw new Error(`no type at ${t.file} ${t.symbol} driven alone`);
      const level = await direct().request<TypeHierarchyItem[] | null>(
        `typeHierarchy/${t.direction}`,
        { item: prepared },
      );
      const out = (i: TypeHierarchyItem) => [
        i.name,
        pathToFileURL(join(directRoot, t.file)).href === i.uri ? t.file : i.uri,
        plusOne(i.selectionRange),
      ];
      const bridgeOut = (i: Record<string, unknown>) => {
        const { name, file, kind: _, ...range } = i;
        return [name, file, range];
      };
      expect(bridgeOut(r.item as Record<string, unknown>)).toEqual(out(prepared));
      const mine = (r.types as Record<string, unknown>[]).map(bridgeOut);
      expect(mine).toEqual((level ?? []).map(out));
      expect(mine.map((m) => m[0])).toEqual(t.names);
    }
  });
}

const TS_EXTRA = {
  "src/overloads.ts": [
    "export function pick(a: string): string;",
    "export function pick(a: number): number;",
    "export function pick(a: unknown): unknown {",
    "  return a;",
    "}",
    "",
    "export namespace Outer {",
    "  export class Inner {",
    "    depth(): number {",
    "      return 2;",
    "    }",
    "  }",
    "}",
    "",
  ].join("\n"),
};

const PY_EXTRA = {
  "nested.py": [
    "from typing import overload",
    "",
    "",
    "class Outer:",
    "    class Inner:",
    "        def depth(self) -> int:",
    "            return 2",
    "",
    "",
    "@overload",
    "def pick(a: int) -> int: ...",
    "@overload",
    "def pick(a: str) -> str: ...",
    "def pick(a):",
    "    return a",
    "",
  ].join("\n"),
};

const GO_EXTRA = {
  "lib/lib.go": [
    "// Package lib has a generic list.",
    "package lib",
    "",
    "// List counts what it holds.",
    "type List[T any] struct {",
    "\tn int",
    "}",
    "",
    "func (l *List[T]) Push(v T) { l.n++ }",
    "",
    "func (l List[T]) Len() int { return l.n }",
    "",
    "func Add(a, b int) int { return a + b }",
    "",
  ].join("\n"),
};

const RUST_EXTRA = {
  "src/parse.rs": [
    "pub struct Parser;",
    "pub trait Parse { fn parse(&self) -> u32; }",
    "impl Parser {",
    "    pub fn parse(&self) -> u32 { 1 }",
    "}",
    "impl Parse for Parser {",
    "    fn parse(&self) -> u32 { 2 }",
    "}",
    "pub struct W<T>(T);",
    "impl<T: Clone> W<T> {",
    "    pub fn get(&self) -> T { self.0.clone() }",
    "}",
    "",
  ].join("\n"),
};

const CPP_EXTRA = {
  "qualified.cpp": [
    "namespace a { namespace b {",
    "struct S {",
    "  void m() const;",
    "  void n(int) const;",
    "  void n() const;",
    "};",
    "void S::m() const {}",
    "void S::n(int) const {}",
    "} }",
    "void a::b::S::n() const {}",
    "",
  ].join("\n"),
};

const CASES: ServerCase[] = [
  {
    name: "gopls",
    find: findGopls,
    fixture: () => copyFixture("go"),
    extra: GO_EXTRA,
    sources: [
      { file: "shapes/shapes.go", args: { symbol: "Rect.Area" }, path: ["(Rect).Area"] },
      { file: "shapes/shapes.go", args: { symbol: "Rect.Scale" }, path: ["(*Rect).Scale"] },
      { file: "shapes/shapes.go", args: { symbol: "Shape.Area" }, path: ["Shape", "Area"] },
      {
        file: "shapes/shapes.go",
        args: { line: 17, column: 3, context: 2 },
        path: ["(Rect).Area"],
      },
      // a candidate's line with its path: the one whose name is there
      {
        file: "shapes/shapes.go",
        args: { symbol: "Shape.Area", line: 6 },
        path: ["Shape", "Area"],
      },
      { file: "lib/lib.go", args: { symbol: "List[T].Len" }, path: ["(List[T]).Len"] },
      { file: "lib/lib.go", args: { symbol: "(*List).Push" }, path: ["(*List[T]).Push"] },
      { file: "lib/lib.go", args: { symbol: "lib.Add" }, path: ["Add"] },
      { file: "lib/lib.go", args: { symbol: "List" }, path: ["List"], keyword: "type" },
    ],
    ambiguous: [
      {
        file: "shapes/shapes.go",
        symbol: "Area",
        candidates: [
          ["Shape", 6],
          ["", 16],
        ],
      },
    ],
    types: [
      { file: "shapes/shapes.go", symbol: "Rect", direction: "supertypes", names: ["Shape"] },
      { file: "shapes/shapes.go", symbol: "Shape", direction: "subtypes", names: ["Rect"] },
    ],
  },
  {
    name: "rust-analyzer",
    find: findRustAnalyzer,
    fixture: () => copyFixture("rust"),
    extra: RUST_EXTRA,
    sources: [
      {
        file: "src/shapes.rs",
        args: { symbol: "Rect.area" },
        path: ["impl Area for Rect", "area"],
      },
      { file: "src/shapes.rs", args: { symbol: "Area.area" }, path: ["Area", "area"] },
      {
        file: "src/shapes.rs",
        args: { symbol: "impl Area for Rect" },
        path: ["impl Area for Rect"],
      },
      { file: "src/shapes.rs", args: { symbol: "Rect" }, path: ["Rect"] },
      // an impl as Rust writes it names that block; a generic one by either spelling
      {
        file: "src/parse.rs",
        args: { symbol: "impl Parser::parse" },
        path: ["impl Parser", "parse"],
      },
      {
        file: "src/parse.rs",
        args: { symbol: "impl Parse for Parser::parse" },
        path: ["impl Parse for Parser", "parse"],
      },
      { file: "src/parse.rs", args: { symbol: "impl<T> W<T>::get" }, path: ["impl W<T>", "get"] },
      { file: "src/parse.rs", args: { symbol: "W::get" }, path: ["impl W<T>", "get"] },
      {
        file: "src/parse.rs",
        args: { symbol: "Parser.parse", line: 7 },
        path: ["impl Parse for Parser", "parse"],
      },
    ],
    ambiguous: [
      {
        file: "src/shapes.rs",
        symbol: "area",
        candidates: [
          ["Area", 3],
          ["impl Area for Rect", 13],
        ],
      },
      {
        file: "src/parse.rs",
        symbol: "Parser::parse",
        candidates: [
          ["impl Parser", 4],
          ["impl Parse for Parser", 7],
        ],
      },
    ],
    types: { lacks: "src/shapes.rs" },
  },
  {
    name: "typescript-language-server",
    find: findTypescriptLanguageServer,
    fixture: () => copyFixture("ts"),
    extra: TS_EXTRA,
    sources: [
      { file: "src/shape.ts", args: { symbol: "Square.area" }, path: ["Square", "area"] },
      { file: "src/shape.ts", args: { symbol: "Shape" }, path: ["Shape"] },
      {
        file: "src/overloads.ts",
        args: { symbol: "Outer.Inner.depth" },
        path: ["Outer", "Inner", "depth"],
      },
    ],
    ambiguous: [
      {
        file: "src/shape.ts",
        symbol: "area",
        candidates: [
          ["Shape", 3],
          ["Square", 9],
        ],
      },
      {
        file: "src/overloads.ts",
        symbol: "pick",
        candidates: [
          ["", 1],
          ["", 2],
          ["", 3],
        ],
      },
    ],
    types: { lacks: "src/shape.ts" },
  },
  {
    name: "pyright",
    find: findPyright,
    fixture: () => copyFixture("python"),
    extra: PY_EXTRA,
    sources: [
      { file: "geometry.py", args: { symbol: "Circle.area" }, path: ["Circle", "area"] },
      { file: "geometry.py", args: { symbol: "make_circle" }, path: ["make_circle"] },
      {
        file: "nested.py",
        args: { symbol: "Outer.Inner.depth" },
        path: ["Outer", "Inner", "depth"],
      },
      // pyright lists an overloaded function once, at its implementation: not ambiguous
      { file: "nested.py", args: { symbol: "pick" }, path: ["pick"] },
    ],
    ambiguous: [
      {
        file: "geometry.py",
        symbol: "radius",
        candidates: [
          ["Circle.__init__", 7],
          ["Circle", 8],
          ["make_circle", 14],
        ],
      },
    ],
    types: { lacks: "geometry.py" },
  },
  {
    name: "clangd",
    find: findClangd,
    fixture: () => materializeCFixture(undefined, "cpp"),
    extra: CPP_EXTRA,
    sources: [
      {
        file: "shapes.cpp",
        args: { symbol: "Outer.Inner.depth" },
        path: ["geo", "Outer", "Inner", "depth"],
      },
      { file: "shapes.cpp", args: { symbol: "Square.area" }, path: ["geo", "Square", "area"] },
      { file: "shapes.cpp", args: { symbol: "geo.Cube" }, path: ["geo", "Cube"] },
      { file: "shapes.cpp", args: { line: 33, column: 3, context: 50 }, path: ["main"] },
      // the definition for every spelling; the declaration by its line
      ...["a::b::S::m", "S::m", "S.m", "m"].map((symbol) => ({
        file: "qualified.cpp",
        args: { symbol },
        path: ["a", "b", "S::m"],
      })),
      { file: "qualified.cpp", args: { symbol: "S::m", line: 3 }, path: ["a", "b", "S", "m"] },
    ],
    ambiguous: [
      {
        file: "shapes.cpp",
        symbol: "Outer.scale",
        candidates: [
          ["geo.Outer", 25],
          ["geo.Outer", 26],
        ],
      },
      ...["a::b::S::n", "S::n"].map((symbol) => ({
        file: "qualified.cpp",
        symbol,
        candidates: [["a.b", 8] as [string, number], ["", 10] as [string, number]],
      })),
    ],
    types: { lacks: "shapes.cpp" },
  },
];

for (const c of CASES) {
  const found = await requiredServer(c.name, c.find);
  describe.skipIf(!found)(c.name, () => serverSuite(c, found));
}
