/** type_hierarchy results (SPEC §4.3): items at their selection, each type once, canonical order. */
import { describe, expect, test } from "bun:test";
import type { TypeHierarchyItem } from "vscode-languageserver-protocol";
import { normalizeTypes, pickTypeItem } from "../../../src/normalize/type-hierarchy.ts";
import { fileUri, fixtureContext, r, range } from "../../support/normalize-context.ts";

const FILES = {
  "a.go": "type Shape interface{}\n// 😀 type Rect struct{}\ntype Rect struct{}\n",
  "b.go": "type Square struct{}\n",
};
const { ctx } = fixtureContext(FILES);

function item(
  name: string,
  rel: string,
  line: number,
  from: number,
  to: number,
): TypeHierarchyItem {
  return {
    name,
    kind: 23,
    uri: fileUri(rel),
    range: r(line, 0, line, to + 9),
    selectionRange: r(line, from, line, to),
  };
}

const RECT = item("Rect", "a.go", 2, 5, 9);
const SQUARE = item("Square", "b.go", 0, 5, 11);
const SHAPE = { ...item("Shape", "a.go", 0, 5, 10), kind: 11 };

describe("pickTypeItem", () => {
  test("the first well-formed item in canonical order, at its name; the raw item kept", () => {
    const picked = pickTypeItem([SQUARE, { name: 1 }, RECT], ctx);
    expect(picked?.out).toEqual({
      name: "Rect",
      kind: "struct",
      file: "a.go",
      ...range(3, 6, 3, 10),
    });
    expect(picked?.raw).toBe(RECT);
  });

  test("nothing well-formed, or not a list: none", () => {
    expect(pickTypeItem(null, ctx)).toBeUndefined();
    expect(pickTypeItem([{ name: "x", uri: 3 }], ctx)).toBeUndefined();
    expect(pickTypeItem({ items: [RECT] }, ctx)).toBeUndefined();
  });
});

describe("normalizeTypes", () => {
  test("canonical order by location, duplicates once, malformed entries dropped", () => {
    const types = normalizeTypes([SQUARE, RECT, "junk", SHAPE, RECT, { uri: "x" }], ctx);
    expect(types.map((t) => [t.name, t.kind, "file" in t && t.file, t.line, t.column])).toEqual([
      ["Shape", "interface", "a.go", 1, 6],
      ["Rect", "struct", "a.go", 3, 6],
      ["Square", "struct", "b.go", 1, 6],
    ]);
  });

  test("not a list (null, an object): no types", () => {
    expect(normalizeTypes(null, ctx)).toEqual([]);
    expect(normalizeTypes({ 0: RECT }, ctx)).toEqual([]);
  });
});
