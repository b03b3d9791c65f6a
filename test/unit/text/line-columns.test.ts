/**
 * The ASCII line table converts server positions exactly as the full LineIndex does (SPEC
 * §5, and the tolerant clamping of server output, SPEC §8).
 */
import { expect, test } from "bun:test";
import type { ColumnUnit } from "../../../src/config/types.ts";
import { AsciiLines, columnsToClient, lineColumnsOf } from "../../../src/text/line-columns.ts";
import { LineIndex, lspToClient, type PositionEncoding } from "../../../src/text/positions.ts";

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
            expect({ text, pos, enc, unit, got: ascii.toClient(pos) }).toEqual({
              text,
              pos,
              enc,
              unit,
              got: lspToClient(full, pos, enc, unit),
            });
            expect(columnsToClient(ascii, pos, enc, unit)).toEqual(ascii.toClient(pos));
          }
        }
      }
    }
  }
});
