import { describe, expect, test } from "bun:test";
import type { ColumnUnit } from "../../../src/config/types.ts";
import {
  clientToLsp,
  LineIndex,
  lspPositionToOffset,
  lspToClient,
  measure,
  offsetToLspPosition,
  type PositionEncoding,
  unitToEncoding,
} from "../../../src/text/positions.ts";
import { thrown } from "../../support/thrown.ts";

// lines: "a😀b" | "çé€" | "x" | ""  (CRLF, lone CR, LF)
const MIXED = "a😀b\r\nçé€\rx\n";

describe("LineIndex", () => {
  test("counts lines for every terminator kind", () => {
    expect(new LineIndex("a\nb").lineCount).toBe(2);
    expect(new LineIndex("a\n").lineCount).toBe(2);
    expect(new LineIndex("").lineCount).toBe(1);
    expect(new LineIndex("a\r\nb").lineCount).toBe(2);
    expect(new LineIndex("a\rb\r\n").lineCount).toBe(3);
    expect(new LineIndex("\r\r\n\n").lineCount).toBe(4);
  });

  test("line starts, ends and text exclude terminators", () => {
    const index = new LineIndex(MIXED);
    expect(index.lineCount).toBe(4);
    expect([0, 1, 2, 3].map((l) => index.lineText(l))).toEqual(["a😀b", "çé€", "x", ""]);
    expect([0, 1, 2, 3].map((l) => index.lineStart(l))).toEqual([0, 6, 10, 12]);
    expect([0, 1, 2, 3].map((l) => index.lineEnd(l))).toEqual([4, 9, 11, 12]);
  });
});

describe("measure and units", () => {
  test("code units, code points and bytes", () => {
    expect(measure("a😀b", "utf-16")).toBe(4);
    expect(measure("a😀b", "utf-32")).toBe(3);
    expect(measure("a😀b", "utf-8")).toBe(6);
    expect(measure("çé€", "utf-8")).toBe(7);
    expect(measure("çé€", "utf-16")).toBe(3);
    expect(measure("", "utf-8")).toBe(0);
  });

  test("column units map to encodings", () => {
    expect(unitToEncoding("code-point")).toBe("utf-32");
    expect(unitToEncoding("utf-16")).toBe("utf-16");
    expect(unitToEncoding("utf-8")).toBe("utf-8");
  });
});

describe("clientToLsp", () => {
  const index = new LineIndex(MIXED);

  test("after an astral character, in each server encoding", () => {
    // line 1, code-point column 3 = just after 😀
    expect(clientToLsp(index, 1, 3, "code-point", "utf-16")).toEqual({ line: 0, character: 3 });
    expect(clientToLsp(index, 1, 3, "code-point", "utf-8")).toEqual({ line: 0, character: 5 });
    expect(clientToLsp(index, 1, 3, "code-point", "utf-32")).toEqual({ line: 0, character: 2 });
    expect(clientToLsp(index, 1, 4, "utf-16", "utf-32")).toEqual({ line: 0, character: 2 });
    expect(clientToLsp(index, 1, 6, "utf-8", "utf-16")).toEqual({ line: 0, character: 3 });
  });

  test("lines after CRLF and lone CR", () => {
    expect(clientToLsp(index, 2, 3, "code-point", "utf-8")).toEqual({ line: 1, character: 4 });
    expect(clientToLsp(index, 3, 2, "utf-8", "utf-16")).toEqual({ line: 2, character: 1 });
    expect(clientToLsp(index, 4, 1, "utf-8", "utf-16")).toEqual({ line: 3, character: 0 });
  });

  test("column may be line length + 1, not more", () => {
    expect(clientToLsp(index, 2, 4, "code-point", "utf-8")).toEqual({ line: 1, character: 7 });
    const err = thrown(() => clientToLsp(index, 2, 5, "code-point", "utf-8"));
    expect(err.code).toBe("PositionOutOfRange");
    expect(err.details).toEqual({ line: 2, column: 5, line_count: 4, line_length: 3 });
  });

  test("a column inside a character is refused, never rounded", () => {
    // utf-16 column 3 is between the two halves of 😀
    expect(thrown(() => clientToLsp(index, 1, 3, "utf-16", "utf-8")).code).toBe(
      "PositionOutOfRange",
    );
    // utf-8 column 2 is inside the two bytes of ç
    const err = thrown(() => clientToLsp(index, 2, 2, "utf-8", "utf-16"));
    expect(err.code).toBe("PositionOutOfRange");
    expect(err.message).toContain("inside a character");
  });

  test("lines outside the file and column 0 are refused", () => {
    const past = thrown(() => clientToLsp(index, 5, 1, "utf-16", "utf-16"));
    expect(past.code).toBe("PositionOutOfRange");
    expect(past.details).toEqual({ line: 5, column: 1, line_count: 4, line_length: null });
    const refused = (line: number, column: number) =>
      thrown(() => clientToLsp(index, line, column, "utf-16", "utf-16")).code;
    expect(refused(0, 1)).toBe("PositionOutOfRange");
    expect(refused(1, 0)).toBe("PositionOutOfRange");
  });
});

describe("lspToClient (server output, tolerant)", () => {
  const index = new LineIndex(MIXED);
  /** [text, LSP line, character, server encoding, client unit, client line, column] */
  type Row = [LineIndex, number, number, PositionEncoding, ColumnUnit, number, number];
  const answers = (rows: Row[]) => {
    for (const [text, line, character, enc, unit, l, column] of rows)
      expect(lspToClient(text, { line, character }, enc, unit)).toEqual({ line: l, column });
  };

  test("exact conversion", () => {
    answers([
      [index, 0, 5, "utf-8", "code-point", 1, 3],
      [index, 1, 2, "utf-32", "utf-8", 2, 5],
    ]);
  });

  test("past the line end → line end; past the text → end of text", () => {
    answers([
      [index, 0, 99, "utf-16", "utf-16", 1, 5],
      [index, 9, 0, "utf-16", "utf-16", 4, 1],
      [new LineIndex("ab\ncd"), 7, 3, "utf-16", "utf-8", 2, 3], // no final newline
    ]);
  });

  test("inside a character → that character's start", () => {
    answers([
      [index, 0, 2, "utf-16", "code-point", 1, 2],
      [index, 0, 3, "utf-8", "utf-16", 1, 2],
    ]);
  });
});

describe("offsets", () => {
  const index = new LineIndex(MIXED);

  test("lspPositionToOffset: exact or undefined", () => {
    expect(lspPositionToOffset(index, { line: 0, character: 5 }, "utf-8")).toBe(3);
    expect(lspPositionToOffset(index, { line: 1, character: 3 }, "utf-16")).toBe(9);
    expect(lspPositionToOffset(index, { line: 0, character: 2 }, "utf-16")).toBeUndefined();
    expect(lspPositionToOffset(index, { line: 0, character: 5 }, "utf-16")).toBeUndefined();
    expect(lspPositionToOffset(index, { line: 4, character: 0 }, "utf-16")).toBeUndefined();
    expect(lspPositionToOffset(index, { line: -1, character: 0 }, "utf-16")).toBeUndefined();
  });

  test("offsetToLspPosition: terminators and surrogate halves", () => {
    expect(offsetToLspPosition(index, 3, "utf-8")).toEqual({ line: 0, character: 5 });
    // between \r and \n of the CRLF → end of line 0
    expect(offsetToLspPosition(index, 5, "utf-16")).toEqual({ line: 0, character: 4 });
    // lone CR belongs to line 1
    expect(offsetToLspPosition(index, 9, "utf-32")).toEqual({ line: 1, character: 3 });
    expect(offsetToLspPosition(index, 10, "utf-32")).toEqual({ line: 2, character: 0 });
    // inside 😀 → its start
    expect(offsetToLspPosition(index, 2, "utf-16")).toEqual({ line: 0, character: 1 });
    expect(offsetToLspPosition(index, 999, "utf-16")).toEqual({ line: 3, character: 0 });
  });
});
