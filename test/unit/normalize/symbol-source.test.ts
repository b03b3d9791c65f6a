/** symbol_source (SPEC §4.3): the symbol at a position, and the text over its range. */
import { describe, expect, test } from "bun:test";
import {
  fromKeyword,
  sourceText,
  symbolAt,
  symbolPathOf,
} from "../../../src/normalize/symbol-source.ts";
import type { Range, SymbolNode } from "../../../src/normalize/types.ts";
import { LineIndex } from "../../../src/text/positions.ts";

const rng = (line: number, column: number, end_line: number, end_column: number): Range => ({
  line,
  column,
  end_line,
  end_column,
});

function node(name: string, range: Range, children: SymbolNode[] = []): SymbolNode {
  return { name, kind: "class", range, selection: range, children };
}

// class Outer {            1
//   class Inner {          2
//     depth() {}           3
//   }                      4
// }                        5
const TREE = [
  node("Outer", rng(1, 1, 5, 2), [
    node("Inner", rng(2, 3, 4, 4), [node("depth", rng(3, 5, 3, 15))]),
  ]),
  node("twin", rng(7, 1, 7, 9)),
  node("twin2", rng(7, 1, 7, 9)),
];

describe("symbolAt", () => {
  test("the innermost symbol whose range holds the position, with its containers", () => {
    const m = symbolAt(TREE, 3, 7);
    expect(m?.node.name).toBe("depth");
    expect(m ? symbolPathOf(m) : undefined).toBe("Outer.Inner.depth");
    expect(symbolAt(TREE, 5, 1)?.node.name).toBe("Outer");
    expect(symbolAt(TREE, 4, 5)?.node.name).toBe("Outer");
    expect(symbolAt(TREE, 2, 3)?.node.name).toBe("Inner");
  });

  test("the end counts as inside; outside every symbol: none", () => {
    expect(symbolAt(TREE, 3, 15)?.node.name).toBe("depth");
    expect(symbolAt(TREE, 3, 16)?.node.name).toBe("Inner");
    expect(symbolAt(TREE, 6, 1)).toBeUndefined();
    expect(symbolAt(TREE, 5, 3)).toBeUndefined();
  });

  test("siblings with the same range: the first in canonical order", () => {
    expect(symbolAt(TREE, 7, 4)?.node.name).toBe("twin");
  });
});

describe("sourceText", () => {
  const text = "a\r\nfn 😀x() {\r\n  body\r\n}\nlast";
  const index = new LineIndex(text);

  test("exactly the range, columns in the client's unit across an astral character", () => {
    // `😀x() {` … `}`: code points count the emoji as one column, UTF-16 as two
    expect(sourceText(index, rng(2, 4, 4, 2), 0, "code-point")).toEqual({
      text: "😀x() {\r\n  body\r\n}",
    });
    expect(sourceText(index, rng(2, 4, 4, 2), 0, "utf-16")).toEqual({
      text: "😀x() {\r\n  body\r\n}",
    });
    expect(sourceText(index, rng(2, 5, 2, 6), 0, "code-point").text).toBe("x");
    expect(sourceText(index, rng(2, 6, 2, 7), 0, "utf-16").text).toBe("x");
    expect(sourceText(index, rng(2, 9, 2, 11), 0, "utf-8").text).toBe("()");
  });

  test("context: whole lines around, clipped to the file, with the range they cover", () => {
    expect(sourceText(index, rng(3, 3, 3, 7), 1, "code-point")).toEqual({
      text: "fn 😀x() {\r\n  body\r\n}",
      text_range: rng(2, 1, 4, 2),
    });
    expect(sourceText(index, rng(3, 3, 3, 7), 50, "utf-16")).toEqual({
      text,
      text_range: rng(1, 1, 5, 5),
    });
    expect(sourceText(index, rng(2, 1, 2, 10), 1, "utf-16").text_range).toEqual(rng(1, 1, 3, 7));
  });

  test("an empty or inverted range is empty text", () => {
    expect(sourceText(index, rng(3, 3, 3, 3), 0, "code-point").text).toBe("");
    expect(sourceText(index, rng(3, 5, 3, 3), 0, "code-point").text).toBe("");
  });
});

describe("fromKeyword", () => {
  // gopls: a type's range starts at its name; in a group, the line holds no keyword
  const text =
    "type List[T any] struct {\r\n}\r\n\ttype  B int\r\ntype (\r\n\tA int\r\n)\r\nvar typed int\r\n";
  const index = new LineIndex(text);

  test("a range after `type` alone on its line starts at `type`", () => {
    expect(fromKeyword(index, rng(1, 6, 2, 2), "utf-16")).toEqual(rng(1, 1, 2, 2));
    expect(fromKeyword(index, rng(3, 8, 3, 13), "utf-8")).toEqual(rng(3, 2, 3, 13));
    expect(sourceText(index, fromKeyword(index, rng(1, 6, 2, 2), "utf-16"), 0, "utf-16").text).toBe(
      "type List[T any] struct {\r\n}",
    );
  });

  test("anything else before the range, or none: the range as it is", () => {
    expect(fromKeyword(index, rng(5, 2, 5, 7), "utf-16")).toEqual(rng(5, 2, 5, 7));
    expect(fromKeyword(index, rng(7, 5, 7, 14), "utf-16")).toEqual(rng(7, 5, 7, 14));
    expect(fromKeyword(index, rng(7, 10, 7, 14), "utf-16")).toEqual(rng(7, 10, 7, 14));
    expect(fromKeyword(index, rng(1, 1, 2, 2), "utf-16")).toEqual(rng(1, 1, 2, 2));
    expect(fromKeyword(index, rng(99, 1, 99, 2), "utf-16")).toEqual(rng(99, 1, 99, 2));
  });
});
