/**
 * Positions between the client's lines (LSP's model) and a server's lines in another model
 * (SPEC §5, the line model): a client position and the server position it becomes name the
 * same text offset, for every terminator (CR, LF, CRLF, NEL, VT, FF, FS, GS, RS, U+2028, U+2029), astral
 * characters, texts with and without a final newline, in every encoding and column unit.
 * The oracle (test/support/line-oracle.ts) shares no code with src/text.
 */
import { expect, test } from "bun:test";
import type { ColumnUnit } from "../../../src/config/types.ts";
import { LineIndex } from "../../../src/text/line-index.ts";
import { type LineModel, LSP_LINES, lineModel } from "../../../src/text/line-model.ts";
import {
  clientToLsp,
  lspPositionToOffset,
  lspToClient,
  offsetToLspPosition,
  type PositionEncoding,
  readToAnswer,
} from "../../../src/text/positions.ts";
import { expectAt } from "../../support/expect-where.ts";
import {
  ALL_TERMINATORS,
  oracleLines,
  oracleOffset,
  oraclePosition,
} from "../../support/line-oracle.ts";
import { Prng } from "../../support/prng.ts";

const MODELS: LineModel[] = [
  LSP_LINES,
  lineModel(["lf"]),
  lineModel(["lf", "crlf"]),
  lineModel(["cr", "lf"]),
  lineModel(["cr", "lf", "crlf", "u2028", "u2029"]),
  lineModel(["cr", "lf", "crlf", "u2028", "u2029", "nel", "vt", "ff"]),
  // Python's str.splitlines (pylsp reads so)
  lineModel(["cr", "lf", "crlf", "u2028", "u2029", "nel", "vt", "ff", "fs", "gs", "rs"]),
];
const UNITS: ColumnUnit[] = ["code-point", "utf-16", "utf-8"];
const ENCODINGS: PositionEncoding[] = ["utf-8", "utf-16", "utf-32"];
const CHARS = ["a", "_", "é", "中", "😀", "𝄞"];

function unitEnc(unit: ColumnUnit): PositionEncoding {
  return unit === "code-point" ? "utf-32" : unit;
}

/** Offsets where a client position can point: code point boundaries outside LSP's terminators. */
function clientOffsets(text: string): number[] {
  const client = oracleLines(text, LSP_LINES.names);
  const out: number[] = [];
  client.starts.forEach((start, line) => {
    const end = client.ends[line] as number;
    for (let at = start; at <= end; ) {
      out.push(at);
      if (at === end) break;
      at += String.fromCodePoint(text.codePointAt(at) as number).length;
    }
  });
  return out;
}

/** An LSP position. */
const at = (line: number, character: number) => ({ line, character });

/** Every conversion of every client position of `text` agrees with the oracle. */
function checkText(text: string, model: LineModel): number {
  const index = new LineIndex(text, model);
  const client = oracleLines(text, LSP_LINES.names);
  const server = oracleLines(text, model.names);
  let checked = 0;
  for (const offset of clientOffsets(text)) {
    for (const enc of ENCODINGS) {
      const want = oraclePosition(text, server, offset, enc);
      const where = { text, model: model.key, offset, enc };
      expectAt(where, offsetToLspPosition(index, offset, enc), want);
      expectAt(where, lspPositionToOffset(index, want, enc), offset);
      for (const unit of UNITS) {
        const c = oraclePosition(text, client, offset, unitEnc(unit));
        const at = { line: c.line + 1, column: c.character + 1 };
        expectAt({ ...where, unit }, clientToLsp(index, at.line, at.column, unit, enc), want);
        expectAt({ ...where, unit }, lspToClient(index, want, enc, unit), at);
        checked++;
      }
    }
  }
  return checked;
}

test("a table: one of each terminator, an astral character, no final newline", () => {
  const text = "a\rb\nc\r\nd\u2028e\u2029f\u0085g\u000bh\u000ci😀j";
  for (const model of MODELS) checkText(text, model);
  const lf = new LineIndex(text, lineModel(["lf"]));
  // "d" is on client line 4 (after CR, LF, CRLF); on the LF-only server's line 3
  expect(clientToLsp(lf, 4, 1, "code-point", "utf-16")).toEqual({ line: 2, character: 0 });
  // "b", after the lone CR on the server's first line, starts the client's second
  expect(lspToClient(lf, at(0, 2), "utf-16", "code-point")).toEqual({ line: 2, column: 1 });
  const ts = new LineIndex(text, lineModel(["cr", "lf", "crlf", "u2028", "u2029"]));
  // "j", after the astral character on the last client line (4), is on tsserver's line 6
  const j = clientToLsp(ts, 4, 13, "code-point", "utf-16");
  expect(j).toEqual({ line: 5, character: 9 });
  expect(lspToClient(ts, j, "utf-16", "code-point")).toEqual({ line: 4, column: 13 });
});

test("random texts of every terminator: every client position names the offset the server's does", () => {
  const rand = new Prng(0x5e1f);
  const pieces = [...ALL_TERMINATORS, ...CHARS, ...CHARS];
  let checked = 0;
  for (let i = 0; i < 120; i++) {
    let text = "";
    for (let n = rand.int(0, 24); n > 0; n--) text += rand.pick(pieces);
    if (rand.chance(0.3)) text += rand.pick(ALL_TERMINATORS);
    for (const model of MODELS) checked += checkText(text, model);
  }
  expect(checked).toBeGreaterThan(50_000);
});

test("server output between CR and LF, past a line or past the text: clamped on the client's side", () => {
  const lf = new LineIndex("ab\r\ncd\rx", lineModel(["lf"]));
  // the LF-only server's line 0 is "ab\r": character 3 is between CR and LF
  expect(lspPositionToOffset(lf, at(0, 3), "utf-16")).toBe(3);
  expect(lspToClient(lf, at(0, 3), "utf-16", "code-point")).toEqual({ line: 1, column: 3 });
  expect(lspToClient(lf, at(1, 99), "utf-16", "code-point")).toEqual({ line: 3, column: 2 });
  expect(lspToClient(lf, at(7, 0), "utf-16", "code-point")).toEqual({ line: 3, column: 2 });
  // a position the server's lines do not hold: refused, as for LSP's
  expect(lspPositionToOffset(lf, at(2, 0), "utf-16")).toBeUndefined();
  expect(lspPositionToOffset(lf, at(1, 5), "utf-16")).toBeUndefined();
  const text = "ab\r\ncd\rx";
  expect(oracleOffset(text, oracleLines(text, ["lf"]), at(1, 4), "utf-16")).toBe(8);
});

test("reads in one model, answers in another (clangd): requests in the first, answers from the second", () => {
  const text = "int f;\n/* \r */\nint g = f;\n";
  const index = new LineIndex(text, lineModel(["lf"]), LSP_LINES);
  // client line 4 (after the lone CR) is the LF-only line 3 clangd reads
  expect(clientToLsp(index, 4, 9, "code-point", "utf-32")).toEqual({ line: 2, character: 8 });
  expect(offsetToLspPosition(index, text.indexOf("f;\n", 10), "utf-32")).toEqual(at(2, 8));
  // what it answers is in LSP's lines: its line 3 is the client's line 4
  expect(lspToClient(index, at(3, 8), "utf-32", "code-point")).toEqual({ line: 4, column: 9 });
  // a position it reads, to compare with its answers (a code action's range, its diagnostics)
  expect(readToAnswer(index, at(2, 8), "utf-32")).toEqual(at(3, 8));
  const same = new LineIndex(text, lineModel(["lf"]));
  const pos = { line: 2, character: 8 };
  expect(readToAnswer(same, pos, "utf-32")).toBe(pos);
});
