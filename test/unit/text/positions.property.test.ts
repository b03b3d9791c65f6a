/**
 * Property test for SPEC §5 position conversion: random texts mixing 1-, 2-, 3- and 4-byte
 * characters with LF, CRLF and lone CR endings. Every character boundary must round-trip
 * client → LSP → client for every (column unit, server encoding) pair, and offsets must agree
 * with a naive model built alongside the text.
 */

import { expect, test } from "bun:test";
import type { ColumnUnit } from "../../../src/config/types.ts";
import { BridgeError } from "../../../src/errors.ts";
import {
  clientToLsp,
  LineIndex,
  lspPositionToOffset,
  lspToClient,
  offsetToLspPosition,
  type PositionEncoding,
} from "../../../src/text/positions.ts";
import { expectAt } from "../../support/expect-where.ts";
import { Prng } from "../../support/prng.ts";

const CHARS = ["a", "Z", " ", "_", "é", "ß", "€", "中", "😀", "𝄞"];
const ENDINGS = ["\n", "\r\n", "\r"];
const UNITS: ColumnUnit[] = ["code-point", "utf-16", "utf-8"];
const ENCODINGS: PositionEncoding[] = ["utf-8", "utf-16", "utf-32"];

/** Independent widths: string length, 1 per character, and TextEncoder bytes. */
const encoder = new TextEncoder();
function width(ch: string, enc: PositionEncoding): number {
  if (enc === "utf-16") return ch.length;
  if (enc === "utf-32") return 1;
  return encoder.encode(ch).length;
}
function unitEnc(unit: ColumnUnit): PositionEncoding {
  return unit === "code-point" ? "utf-32" : unit;
}

interface Model {
  text: string;
  /** per line, its characters */
  lines: string[][];
  /** per line, the UTF-16 offset of its start */
  starts: number[];
}

function randomText(rand: Prng): Model {
  const lines: string[][] = [[]];
  const starts = [0];
  let text = "";
  const tokens = rand.int(0, 39);
  for (let i = 0; i < tokens; i++) {
    if (rand.chance(0.2)) {
      let ending = rand.pick(ENDINGS);
      // "\r" then "\n" would be one CRLF terminator, not two: the model keeps them apart
      if (ending === "\n" && text.endsWith("\r")) ending = "\r\n";
      text += ending;
      lines.push([]);
      starts.push(text.length);
    } else {
      const ch = rand.pick(CHARS);
      text += ch;
      (lines[lines.length - 1] as string[]).push(ch);
    }
  }
  return { text, lines, starts };
}

function sumWidth(chars: string[], enc: PositionEncoding): number {
  return chars.reduce((n, ch) => n + width(ch, enc), 0);
}

test("positions round-trip exactly at every character boundary", () => {
  const rand = new Prng(0x7e0d011e);
  let checked = 0;
  for (let iteration = 0; iteration < 400; iteration++) {
    const model = randomText(rand);
    const index = new LineIndex(model.text);
    expect(index.lineCount).toBe(model.lines.length);
    model.lines.forEach((chars, line0) => {
      expect(index.lineText(line0)).toBe(chars.join(""));
      expect(index.lineStart(line0)).toBe(model.starts[line0] as number);
      for (let k = 0; k <= chars.length; k++) {
        const prefix = chars.slice(0, k);
        const offset = (model.starts[line0] as number) + sumWidth(prefix, "utf-16");
        for (const enc of ENCODINGS) {
          const expected = { line: line0, character: sumWidth(prefix, enc) };
          expect(offsetToLspPosition(index, offset, enc)).toEqual(expected);
          expect(lspPositionToOffset(index, expected, enc)).toBe(offset);
          for (const unit of UNITS) {
            const column = sumWidth(prefix, unitEnc(unit)) + 1;
            const lsp = clientToLsp(index, line0 + 1, column, unit, enc);
            expect(lsp).toEqual(expected);
            expect(lspToClient(index, lsp, enc, unit)).toEqual({ line: line0 + 1, column });
            checked++;
          }
        }
      }
    });
  }
  expect(checked).toBeGreaterThan(10_000);
});

test("columns inside a character or past the line end are refused", () => {
  const rand = new Prng(0xc0ffee);
  for (let iteration = 0; iteration < 200; iteration++) {
    const model = randomText(rand);
    const index = new LineIndex(model.text);
    model.lines.forEach((chars, line0) => {
      for (const unit of UNITS) {
        const enc = unitEnc(unit);
        let column = 1;
        for (const ch of chars) {
          // every column strictly inside a multi-unit character
          for (let inside = 1; inside < width(ch, enc); inside++) {
            expect(() => clientToLsp(index, line0 + 1, column + inside, unit, "utf-16")).toThrow(
              BridgeError,
            );
          }
          column += width(ch, enc);
        }
        expect(() => clientToLsp(index, line0 + 1, column + 1, unit, "utf-8")).toThrow(BridgeError);
      }
    });
    expect(() => clientToLsp(index, model.lines.length + 1, 1, "utf-16", "utf-16")).toThrow(
      BridgeError,
    );
  }
});

test("lspToClient on pure-ASCII text (its fast path) equals the general walk over the same lines", () => {
  const rand = new Prng(0xa5c11);
  const ascii = CHARS.filter((ch) => ch.charCodeAt(0) < 0x80);
  let checked = 0;
  for (let iteration = 0; iteration < 300; iteration++) {
    let text = "";
    for (let i = rand.int(0, 40); i > 0; i--) {
      let piece = rand.chance(0.2) ? rand.pick(ENDINGS) : rand.pick(ascii);
      if (piece === "\n" && text.endsWith("\r")) piece = "\r\n";
      text += piece;
    }
    const fast = new LineIndex(text);
    // one non-ASCII line in front: the same lines one further down, converted by the walk
    const walked = new LineIndex(`é\n${text}`);
    expect(fast.ascii).toBe(true);
    expect(walked.ascii).toBe(false);
    const characters = [0, 1, 2, 3, 7, 50, -4, 2.5, Number.NaN, Number.POSITIVE_INFINITY];
    for (let line = 0; line <= fast.lineCount + 2; line++) {
      for (const character of characters) {
        for (const enc of ENCODINGS) {
          for (const unit of UNITS) {
            const got = lspToClient(fast, { line, character }, enc, unit);
            const want = lspToClient(walked, { line: line + 1, character }, enc, unit);
            expectAt({ line, character }, got, { line: want.line - 1, column: want.column });
            checked += 1;
          }
        }
      }
    }
  }
  expect(checked).toBeGreaterThan(10_000);
});
