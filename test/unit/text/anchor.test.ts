/** The `symbol` anchor on a client line (SPEC §4.2). */
import { describe, expect, test } from "bun:test";
import { anchorColumn } from "../../../src/text/anchor.ts";
import { LineIndex } from "../../../src/text/line-index.ts";
import { thrown } from "../../support/thrown.ts";

describe("anchorColumn", () => {
  test("prefers whole identifiers, counts occurrences", () => {
    const index = new LineIndex("let foobar = foo + foo;");
    expect(anchorColumn(index, 1, "foo", undefined, "utf-16")).toBe(14);
    expect(anchorColumn(index, 1, "foo", 2, "utf-16")).toBe(20);
  });

  test("falls back to substrings when no whole identifier matches", () => {
    const index = new LineIndex("xfoo yfoo");
    expect(anchorColumn(index, 1, "foo", 1, "utf-8")).toBe(2);
    expect(anchorColumn(index, 1, "foo", 2, "utf-8")).toBe(7);
  });

  test("columns are in the client unit after astral characters", () => {
    const index = new LineIndex('s = "😀"; t = s\nnext');
    expect(anchorColumn(index, 1, "t", 1, "code-point")).toBe(10);
    expect(anchorColumn(index, 1, "t", 1, "utf-16")).toBe(11);
    expect(anchorColumn(index, 1, "t", 1, "utf-8")).toBe(13);
    expect(anchorColumn(index, 2, "next", undefined, "utf-8")).toBe(1);
  });

  test("non-identifier symbols and Unicode identifiers", () => {
    expect(anchorColumn(new LineIndex("p->q"), 1, "->", 1, "utf-16")).toBe(2);
    expect(anchorColumn(new LineIndex("caféine café"), 1, "café", 1, "code-point")).toBe(9);
  });

  test("missing symbol and too-high occurrence", () => {
    const index = new LineIndex("a b a");
    const none = thrown(() => anchorColumn(index, 1, "c", undefined, "utf-16"));
    expect(none.code).toBe("SymbolNotOnLine");
    expect(none.details).toEqual({ line: 1, symbol: "c", occurrence: 1, found: 0 });
    const third = thrown(() => anchorColumn(index, 1, "a", 3, "utf-16"));
    expect(third.code).toBe("SymbolNotOnLine");
    expect(third.details).toEqual({ line: 1, symbol: "a", occurrence: 3, found: 2 });
    expect(thrown(() => anchorColumn(index, 2, "a", 1, "utf-16")).code).toBe("PositionOutOfRange");
    expect(thrown(() => anchorColumn(index, 1, "", 1, "utf-16")).code).toBe("InvalidArgument");
  });
});
