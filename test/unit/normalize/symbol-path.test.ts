/** `symbol` without `line` (SPEC §4.2): names and dotted paths in a document-symbol tree. */
import { describe, expect, test } from "bun:test";
import { candidateOf, findSymbols } from "../../../src/normalize/symbol-path.ts";
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
    expect(findSymbols(TREE, "size").map(candidateOf)).toEqual([
      { name: "size", kind: "method", container: "Box", line: 2, column: 5 },
      { name: "size", kind: "field", container: "Box.inner", line: 4, column: 5 },
      { name: "size", kind: "method", container: "Crate", line: 7, column: 5 },
      { name: "size", kind: "function", line: 9, column: 5 },
    ]);
  });
});
