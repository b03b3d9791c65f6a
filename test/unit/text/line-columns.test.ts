/**
 * The ASCII line table converts server positions exactly as the full LineIndex does (SPEC
 * §5, and the tolerant clamping of server output, SPEC §8).
 */
import { expect, test } from "bun:test";
import type { ColumnUnit } from "../../../src/config/types.ts";
import { asciiRangeToClient, asciiToClient } from "../../../src/text/ascii-columns.ts";
import {
  AsciiLines,
  callCost,
  columnsSize,
  columnsToClient,
  lineColumnsOf,
  lineColumnsWithin,
} from "../../../src/text/line-columns.ts";
import { LSP_LINES, lineModel } from "../../../src/text/line-model.ts";
import { LineIndex, lspToClient, type PositionEncoding } from "../../../src/text/positions.ts";
import { expectAt } from "../../support/expect-where.ts";

const UNITS: ColumnUnit[] = ["code-point", "utf-16", "utf-8"];
const ENCODINGS: PositionEncoding[] = ["utf-8", "utf-16", "utf-32"];

test("ASCII text gets the text-free table, anything else the full index", () => {
  expect(lineColumnsOf("int main() {\r\n  return 0;\r}\n")).toBeInstanceOf(AsciiLines);
  expect(lineColumnsOf("")).toBeInstanceOf(AsciiLines);
  expect(lineColumnsOf("x = 'é';\n")).toBeInstanceOf(LineIndex);
  expect(lineColumnsOf("// 😀\n")).toBeInstanceOf(LineIndex);
  expect(lineColumnsOf("\u0080")).toBeInstanceOf(LineIndex);
});

test("AsciiLines converts every position, in range or not, as lspToClient does", () => {
  const texts = [
    "",
    "\n",
    "a",
    "abc\ndef\n",
    "x\r\ny\rz",
    "\r\n\r\n",
    "line one\n\nthird",
    "  \t tab\n",
  ];
  const probes = [0, 1, 2, 3, 5, 8, 100, -1, 2.7, Number.NaN, Number.POSITIVE_INFINITY];
  for (const text of texts) {
    const ascii = new AsciiLines(text);
    const full = new LineIndex(text);
    for (const line of probes) {
      for (const character of probes) {
        const pos = { line, character };
        for (const enc of ENCODINGS) {
          for (const unit of UNITS) {
            expectAt(
              { text, pos, enc, unit },
              ascii.toClient(pos),
              lspToClient(full, pos, enc, unit),
            );
            expect(columnsToClient(ascii, pos, enc, unit)).toEqual(ascii.toClient(pos));
          }
        }
      }
    }
  }
});

test("what a call pays for a table: its text's bytes and 4 bytes a line of each table it uses", () => {
  const LF = lineModel(["lf"]);
  const cases: [string, typeof LF, number][] = [
    ["", LSP_LINES, 0 + 4],
    ["ab\ncd\n", LSP_LINES, 6 + 3 * 4],
    ["\n".repeat(1000), LSP_LINES, 1000 + 1001 * 4],
    ["é\n", LSP_LINES, 3 + 2 * 4],
    // a lone CR for a server of LF alone: its lines beside the client's
    ["a\rb\nc", LF, 5 + (3 + 2) * 4],
    // CR LF: the same starts, one table
    ["a\r\nb", LF, 4 + 2 * 4],
  ];
  for (const [text, model, cost] of cases) {
    const lines = lineColumnsOf(text, model);
    expect({ text, cost: callCost(lines) }).toEqual({ text, cost });
    const within = lineColumnsWithin(text, model, cost);
    expect(within).toBeInstanceOf(lines.constructor as typeof AsciiLines);
    expect(callCost(within as AsciiLines)).toBe(cost);
    expect(lineColumnsWithin(text, model, cost - 1)).toBe("budget");
  }
});

test("a pure-ASCII table holds 4 bytes a line and no text, with CRs or without", () => {
  for (const text of ["a\nbb\nccc", "a\r\nbb\rccc\n", "\r".repeat(100)]) {
    const ascii = new AsciiLines(text);
    expect(ascii.size).toBe(4 * ascii.lineCount);
    expect(columnsSize(ascii)).toBe(ascii.size);
    const full = new LineIndex(text);
    for (let line = 0; line < full.lineCount; line++) {
      expect(ascii.lineLength(line)).toBe(full.lineLength(line));
    }
  }
});

test("asciiRangeToClient is asciiToClient of both ends, an end before the start collapsed", () => {
  const texts = ["", "\n", "abc\ndef\n", "x\r\ny\rz", "line one\n\nthird"];
  const probes = [0, 1, 2, 3, 5, 100];
  for (const text of texts) {
    const table = new AsciiLines(text);
    for (const [line, character, endLine, endCharacter] of probes.flatMap((a) =>
      probes.flatMap((b) => probes.map((c) => [a, b, c, (a + b + c) % 7] as const)),
    )) {
      const start = asciiToClient(table, { line, character });
      const end = asciiToClient(table, { line: endLine, character: endCharacter });
      const collapsed =
        end.line < start.line || (end.line === start.line && end.column < start.column);
      const want = collapsed ? start : end;
      expect(asciiRangeToClient(table, line, character, endLine, endCharacter)).toEqual({
        line: start.line,
        column: start.column,
        end_line: want.line,
        end_column: want.column,
      });
    }
  }
});
