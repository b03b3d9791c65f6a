/** `symbol` without `line` (SPEC §4.2): names and dotted paths in a document-symbol tree. */
import { describe, expect, test } from "bun:test";
import {
  candidateOf,
  findSymbols,
  matchSymbols,
  nearSymbols,
} from "../../../src/normalize/symbol-path.ts";
import type { SymbolNode } from "../../../src/normalize/types.ts";

function node(name: string, kind: string, line: number, children: SymbolNode[] = []): SymbolNode {
  const range = { line, column: 1, end_line: line, end_column: 10 };
  return { name, kind, range, selection: { ...range, column: 5 }, children };
}

// class Box { size(); inner { size } }  class Crate { size() }  function size()
const TREE: SymbolNode[] = [
  node("Box", "class", 1, [
    node("size", "method", 2),
    node("inner", "namespace", 3, [node("size", "field", 4)]),
  ]),
  node("Crate", "class", 6, [node("size", "method", 7)]),
  node("size", "function", 9),
  node("a.b", "module", 11),
];

const at = (matches: ReturnType<typeof findSymbols>) =>
  matches.map((m) => `${m.ancestors.join(".")}/${m.node.name}@${m.node.selection.line}`);

describe("findSymbols", () => {
  test("a unique name is found at any depth", () => {
    expect(at(findSymbols(TREE, "Crate"))).toEqual(["/Crate@6"]);
    expect(at(findSymbols(TREE, "inner"))).toEqual(["Box/inner@3"]);
  });

  test("a bare name that occurs several times: every match, in position order", () => {
    expect(at(findSymbols(TREE, "size"))).toEqual([
      "Box/size@2",
      "Box.inner/size@4",
      "Crate/size@7",
      "/size@9",
    ]);
  });

  test("a dotted path names the innermost containers, from any depth", () => {
    expect(at(findSymbols(TREE, "Box.size"))).toEqual(["Box/size@2"]);
    expect(at(findSymbols(TREE, "inner.size"))).toEqual(["Box.inner/size@4"]);
    expect(at(findSymbols(TREE, "Box.inner.size"))).toEqual(["Box.inner/size@4"]);
    expect(at(findSymbols(TREE, "Crate.size"))).toEqual(["Crate/size@7"]);
  });

  test("a path must be the immediate containers; names are exact", () => {
    expect(findSymbols(TREE, "Box.field")).toEqual([]);
    expect(findSymbols(TREE, "Crate.inner.size")).toEqual([]);
    expect(findSymbols(TREE, "box.size")).toEqual([]);
    expect(findSymbols(TREE, "Box.")).toEqual([]);
  });

  test("a name that contains a dot matches as a name too", () => {
    expect(at(findSymbols(TREE, "a.b"))).toEqual(["/a.b@11"]);
  });

  test("candidates: name, kind, dotted container (absent at top level), selection start", () => {
    expect(findSymbols(TREE, "size").map((m) => candidateOf(m))).toEqual([
      { name: "size", kind: "method", container: "Box", line: 2, column: 5 },
      { name: "size", kind: "field", container: "Box.inner", line: 4, column: 5 },
      { name: "size", kind: "method", container: "Crate", line: 7, column: 5 },
      { name: "size", kind: "function", line: 9, column: 5 },
    ]);
  });
});

// gopls: methods at the top level, named by receiver (document_symbols of the go fixture)
const GO: SymbolNode[] = [
  node("Rect", "struct", 10, [node("Width", "field", 11)]),
  node("(Rect).Area", "method", 16),
  node("(*Rect).Scale", "method", 30),
  node("(*List[T]).Push", "method", 40),
  node("Area", "function", 50),
];

// rust-analyzer: methods under impl blocks (the rust fixture, and generic ones)
const RUST: SymbolNode[] = [
  node("Area", "interface", 1, [node("area", "method", 3)]),
  node("Rect", "struct", 6),
  node("impl Area for Rect", "object", 12, [node("area", "method", 13)]),
  node("impl Rect", "object", 18, [node("square", "method", 19)]),
  node("impl<'s, P: Borrow<Parser>> ParserI<'s, P>", "object", 30, [node("bump", "method", 31)]),
  node("impl<T> fmt::Display for crate::wrap::Wrapper<T>", "object", 40, [
    node("fmt", "method", 41),
  ]),
];

describe("names as each language writes them", () => {
  test("Go: Type.method for value and pointer receivers, generic ones too", () => {
    expect(at(findSymbols(GO, "Rect.Area"))).toEqual(["/(Rect).Area@16"]);
    expect(at(findSymbols(GO, "Rect.Scale"))).toEqual(["/(*Rect).Scale@30"]);
    expect(at(findSymbols(GO, "List.Push"))).toEqual(["/(*List[T]).Push@40"]);
    expect(findSymbols(GO, "Rect.Scale")[0]?.word).toBe("Scale");
  });

  test("Go: the server's own spelling, and the bare method name", () => {
    expect(at(findSymbols(GO, "(*Rect).Scale"))).toEqual(["/(*Rect).Scale@30"]);
    expect(at(findSymbols(GO, "Scale"))).toEqual(["/(*Rect).Scale@30"]);
    // a method and a function of one name: both, so the caller can tell them apart
    expect(at(findSymbols(GO, "Area"))).toEqual(["/(Rect).Area@16", "/Area@50"]);
    expect(findSymbols(GO, "Shape.Scale")).toEqual([]);
  });

  test("Rust: methods of inherent and trait impls by their type", () => {
    expect(at(findSymbols(RUST, "Rect.area"))).toEqual(["impl Area for Rect/area@13"]);
    expect(at(findSymbols(RUST, "Rect.square"))).toEqual(["impl Rect/square@19"]);
    expect(at(findSymbols(RUST, "ParserI.bump"))).toEqual([
      "impl<'s, P: Borrow<Parser>> ParserI<'s, P>/bump@31",
    ]);
    expect(at(findSymbols(RUST, "Wrapper.fmt"))).toEqual([
      "impl<T> fmt::Display for crate::wrap::Wrapper<T>/fmt@41",
    ]);
    // the trait's own declaration stays under the trait's name; the server's spelling works
    expect(at(findSymbols(RUST, "Area.area"))).toEqual(["Area/area@3"]);
    expect(at(findSymbols(RUST, "impl Rect.square"))).toEqual(["impl Rect/square@19"]);
    // as Rust writes a path: `::` for `.`, with or without `impl`
    expect(at(findSymbols(RUST, "impl Rect::square"))).toEqual(["impl Rect/square@19"]);
    expect(at(findSymbols(RUST, "Rect::square"))).toEqual(["impl Rect/square@19"]);
  });

  test("C++: a qualified name, and a name the server spells with `::` itself", () => {
    const cpp = [
      node("geo", "namespace", 1, [node("Box", "class", 2, [node("area", "method", 3)])]),
      node("Box::volume", "method", 9),
    ];
    expect(at(findSymbols(cpp, "geo::Box::area"))).toEqual(["geo.Box/area@3"]);
    expect(at(findSymbols(cpp, "Box::volume"))).toEqual(["/Box::volume@9"]);
  });

  test("Rust: an impl as written names that block only; generic impls by either spelling", () => {
    // rust-analyzer's names: an inherent and a trait impl of one type, a generic impl
    const rs = [
      node("Parse", "interface", 2, [node("parse", "method", 2)]),
      node("impl Parser", "object", 3, [node("parse", "method", 4)]),
      node("impl Parse for Parser", "object", 6, [node("parse", "method", 7)]),
      node("impl W<T>", "object", 10, [node("get", "method", 11)]),
      node("impl From<u8> for W<u8>", "object", 13, [node("from", "function", 14)]),
      node("impl From<u16> for W<u16>", "object", 16, [node("from", "function", 17)]),
    ];
    expect(at(findSymbols(rs, "impl Parser::parse"))).toEqual(["impl Parser/parse@4"]);
    expect(at(findSymbols(rs, "impl Parser.parse"))).toEqual(["impl Parser/parse@4"]);
    expect(at(findSymbols(rs, "impl Parse for Parser::parse"))).toEqual([
      "impl Parse for Parser/parse@7",
    ]);
    expect(at(findSymbols(rs, "impl  Parse  for Parser::parse"))).toHaveLength(1);
    // by the type alone both impls' methods: the caller is told they are two
    expect(at(findSymbols(rs, "Parser::parse"))).toEqual([
      "impl Parser/parse@4",
      "impl Parse for Parser/parse@7",
    ]);
    for (const q of ["impl<T> W<T>::get", "impl W<T>::get", "impl W::get", "W::get", "W<T>::get"]) {
      expect(at(findSymbols(rs, q))).toEqual(["impl W<T>/get@11"]);
    }
    expect(at(findSymbols(rs, "impl From<u16> for W<u16>::from"))).toEqual([
      "impl From<u16> for W<u16>/from@17",
    ]);
    expect(findSymbols(rs, "impl From for W::from")).toHaveLength(2);
    expect(findSymbols(rs, "impl Parse::parse")).toEqual([]);
  });

  test("C++: a declaration and its out-of-line definition are one symbol, the definition", () => {
    // clangd: `S` declares m() and m(int); `S::m` defines m() in b, `a::b::S::m` m(int) outside
    const decl = (name: string, line: number, detail: string) => ({
      ...node(name, "method", line),
      detail,
    });
    const cpp = [
      node("a", "namespace", 1, [
        node("b", "namespace", 1, [
          node("S", "struct", 2, [
            decl("m", 3, "void () const"),
            decl("m", 4, "void (int) const"),
            decl("k", 5, "int () const"),
          ]),
          decl("S::m", 7, "void () const"),
        ]),
      ]),
      decl("a::b::S::m", 9, "void (int) const"),
      decl("k", 11, "int ()"),
    ];
    for (const q of ["a::b::S::m", "S::m", "b::S::m", "S.m", "a.b.S.m", "m"]) {
      expect(at(findSymbols(cpp, q)), q).toEqual(["a.b/S::m@7", "/a::b::S::m@9"]);
    }
    // no definition matches: the declaration; another function of the name stays apart
    expect(at(findSymbols(cpp, "S::k"))).toEqual(["a.b.S/k@5"]);
    expect(at(findSymbols(cpp, "k"))).toEqual(["a.b.S/k@5", "/k@11"]);
    expect(findSymbols(cpp, "T::m")).toEqual([]);
    // every match, declarations too, for the caller that filters them (by line)
    expect(at(matchSymbols(cpp, "S::m"))).toEqual([
      "a.b.S/m@3",
      "a.b.S/m@4",
      "a.b/S::m@7",
      "/a::b::S::m@9",
    ]);
  });

  test("Go: generic receivers as written, the pointer spelling, the package qualifier", () => {
    const go = [
      node("List", "struct", 4),
      node("(*List[T]).Push", "method", 8),
      node("(List[T]).Len", "method", 10),
      node("Add", "function", 12),
    ];
    expect(at(findSymbols(go, "List[T].Len"))).toEqual(["/(List[T]).Len@10"]);
    expect(at(findSymbols(go, "(*List).Push"))).toEqual(["/(*List[T]).Push@8"]);
    expect(at(findSymbols(go, "(List).Push"))).toEqual(["/(*List[T]).Push@8"]);
    expect(at(findSymbols(go, "lib.Add", ["lib"]))).toEqual(["/Add@12"]);
    expect(at(findSymbols(go, "lib.List.Len", ["lib"]))).toEqual(["/(List[T]).Len@10"]);
    expect(findSymbols(go, "lib.Add")).toEqual([]);
    expect(findSymbols(go, "other.Add", ["lib"])).toEqual([]);
  });
});

describe("nearSymbols", () => {
  const tree: SymbolNode[] = [
    node("Decoder", "struct", 1),
    node("(*Decoder).Decode", "method", 3),
    node("Box", "class", 5, [node("size", "method", 6), node("resize", "method", 7)]),
    node("sizes", "variable", 9),
  ];

  test("the same name in another case or container, then containing names, then typos", () => {
    expect(nearSymbols(tree, "Box.Size")).toEqual(["Box.size", "Box.resize", "sizes"]);
    expect(nearSymbols(tree, "decode")).toEqual(["(*Decoder).Decode", "Decoder"]);
    expect(nearSymbols(tree, "Decodr")).toEqual(["Decoder", "(*Decoder).Decode"]);
  });

  test("nothing near: none; at most `max`; the query itself is never offered", () => {
    expect(nearSymbols(tree, "Unrelated")).toEqual([]);
    expect(nearSymbols(tree, "Size", 1)).toEqual(["Box.size"]);
    expect(nearSymbols(tree, "Box")).toEqual([]);
    expect(nearSymbols(tree, "")).toEqual([]);
  });
});
