/**
 * Position conversion between the client convention (1-based line, 1-based column in the
 * configured `column_unit`, lines in LSP's model) and LSP positions (0-based, in the
 * negotiated server encoding, lines in the server's model). SPEC §4.2 (no clamping of tool
 * input), §5 (exact for astral characters and every line terminator).
 *
 * Internally every text offset is a UTF-16 code-unit offset into a JS string; the encodings
 * only decide how a column is counted. A LineIndex is the client's table and carries the
 * server's (`index.server`): what takes or gives an LSP position uses the server's lines,
 * what takes or gives a client position the client's, and the two meet at text offsets.
 */

import type { ColumnUnit } from "../config/types.ts";
import type { BridgeError } from "../errors.ts";
import { asciiToClient } from "./ascii-columns.ts";
import type { LineIndex } from "./line-index.ts";
import { positionOutOfRange } from "./position-errors.ts";

export { LineIndex, NON_ASCII } from "./line-index.ts";

export type PositionEncoding = "utf-8" | "utf-16" | "utf-32";

/** 0-based line and character, the character counted in the server's encoding. */
export interface LspPosition {
  line: number;
  character: number;
}

export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}

export function unitToEncoding(unit: ColumnUnit): PositionEncoding {
  return unit === "code-point" ? "utf-32" : unit;
}

/** Width of one code point in an encoding. */
function codePointWidth(cp: number, enc: PositionEncoding): number {
  if (enc === "utf-32") return 1;
  if (enc === "utf-16") return cp > 0xffff ? 2 : 1;
  // utf-8; a lone surrogate counts as U+FFFD (3 bytes), as an encoder would replace it
  if (cp < 0x80) return 1;
  if (cp < 0x800) return 2;
  if (cp < 0x10000) return 3;
  return 4;
}

/** Column width of a string in an encoding (code units / code points / bytes). */
export function measure(s: string, enc: PositionEncoding): number {
  if (enc === "utf-16") return s.length;
  let n = 0;
  for (let i = 0; i < s.length; ) {
    const cp = s.codePointAt(i) as number;
    n += codePointWidth(cp, enc);
    i += cp > 0xffff ? 2 : 1;
  }
  return n;
}

/**
 * UTF-16 offset (relative to the line start) where `units` columns of `enc` end on `line`,
 * or undefined when that is past the line end or inside a character.
 */
function lineOffsetForUnits(
  line: string,
  units: number,
  enc: PositionEncoding,
): number | undefined {
  if (!Number.isInteger(units) || units < 0) return undefined;
  let i = 0;
  let n = 0;
  while (n < units) {
    if (i >= line.length) return undefined;
    const cp = line.codePointAt(i) as number;
    n += codePointWidth(cp, enc);
    i += cp > 0xffff ? 2 : 1;
  }
  return n === units ? i : undefined;
}

/**
 * Like lineOffsetForUnits but tolerant (server output): past the end → line end; inside a
 * character → that character's start.
 */
function lineOffsetForUnitsFloor(line: string, units: number, enc: PositionEncoding): number {
  let i = 0;
  let n = 0;
  while (i < line.length) {
    const cp = line.codePointAt(i) as number;
    const w = codePointWidth(cp, enc);
    if (n + w > units) break;
    n += w;
    i += cp > 0xffff ? 2 : 1;
  }
  return i;
}

/**
 * Client position (1-based line and column in `unit`) → UTF-16 offset into index.text,
 * tolerant like lspToClient (for positions the bridge itself produced from server output):
 * past the end of a line → its end, past the last line → the end of the text.
 */
export function clientOffsetFloor(
  index: LineIndex,
  line: number,
  column: number,
  unit: ColumnUnit,
): number {
  if (line > index.lineCount) return index.text.length;
  const line0 = Math.max(0, Math.trunc(line) - 1);
  const within = lineOffsetForUnitsFloor(
    index.lineText(line0),
    Math.max(0, column - 1),
    unitToEncoding(unit),
  );
  return index.lineStart(line0) + within;
}

/**
 * LSP position → UTF-16 offset into index.text, in the server's lines; undefined when the
 * line is past the end or the character is past the line end or splits a character.
 */
export function lspPositionToOffset(
  index: LineIndex,
  pos: LspPosition,
  enc: PositionEncoding,
): number | undefined {
  return offsetIn(index.server, pos, enc);
}

/** lspPositionToOffset in the lines of `lines` itself (the client's or the server's). */
function offsetIn(lines: LineIndex, pos: LspPosition, enc: PositionEncoding): number | undefined {
  if (!Number.isInteger(pos.line) || pos.line < 0 || pos.line >= lines.lineCount) return undefined;
  const within = lineOffsetForUnits(lines.lineText(pos.line), pos.character, enc);
  return within === undefined ? undefined : lines.lineStart(pos.line) + within;
}

/**
 * UTF-16 offset → LSP position, in the server's lines. Offsets are clamped into the text;
 * an offset inside a line terminator maps to the line end, one inside a surrogate pair to
 * the pair's start.
 */
export function offsetToLspPosition(
  index: LineIndex,
  offset: number,
  enc: PositionEncoding,
): LspPosition {
  return positionAt(index.server, offset, enc);
}

/**
 * A position the server reads, in the lines of its answers (the same unless it counts the
 * two apart: clangd), to compare it with what it answered.
 */
export function readToAnswer(index: LineIndex, pos: LspPosition, enc: PositionEncoding) {
  if (index.answers === index.server) return pos;
  const offset = lspPositionToOffset(index, pos, enc);
  return offset === undefined ? pos : positionAt(index.answers, offset, enc);
}

/** The other way: a position of its answers, in the lines it reads (a rename's edits'). */
export function answerToRead(index: LineIndex, pos: LspPosition, enc: PositionEncoding) {
  if (index.answers === index.server) return pos;
  const offset = offsetIn(index.answers, pos, enc);
  return offset === undefined ? pos : positionAt(index.server, offset, enc);
}

/** offsetToLspPosition in the lines of `lines` itself (the client's or the server's). */
function positionAt(lines: LineIndex, offset: number, enc: PositionEncoding): LspPosition {
  let off = Math.min(Math.max(0, Math.trunc(offset)), lines.text.length);
  const line = lines.lineOf(off);
  off = Math.min(off, lines.lineEnd(line));
  const start = lines.lineStart(line);
  if (off > start && isLowSurrogate(lines.text.charCodeAt(off))) {
    if (isHighSurrogate(lines.text.charCodeAt(off - 1))) off--;
  }
  return { line, character: measure(lines.text.slice(start, off), enc) };
}

export function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

export function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

export function outOfRange(
  index: LineIndex,
  line: number,
  column: number | null,
  unit: ColumnUnit,
  why: string,
): BridgeError {
  const lineLength =
    Number.isInteger(line) && line >= 1 && line <= index.lineCount
      ? measure(index.lineText(line - 1), unitToEncoding(unit))
      : null;
  return positionOutOfRange(line, column, why, unit, index.lineCount, lineLength);
}

export function requireLine(
  index: LineIndex,
  line: number,
  column: number | null,
  unit: ColumnUnit,
): void {
  if (!Number.isInteger(line) || line < 1 || line > index.lineCount) {
    throw outOfRange(index, line, column, unit, `is outside the file (${index.lineCount} lines)`);
  }
}

/**
 * Client position (1-based line, 1-based column in the client's unit) → LSP position in the
 * server's encoding. Never clamps (SPEC §4.2): a line or column outside the text, or a column
 * that falls inside a character, is PositionOutOfRange.
 */
export function clientToLsp(
  index: LineIndex,
  line: number,
  column: number,
  unit: ColumnUnit,
  enc: PositionEncoding,
): LspPosition {
  requireLine(index, line, column, unit);
  const text = index.lineText(line - 1);
  const within = lineOffsetForUnits(text, column - 1, unitToEncoding(unit));
  if (within === undefined) {
    const len = measure(text, unitToEncoding(unit));
    const why =
      Number.isInteger(column) && column >= 1 && column <= len + 1
        ? `falls inside a character (column unit ${unit})`
        : `is past the end of line ${line} (length ${len} in ${unit} units)`;
    throw outOfRange(index, line, column, unit, why);
  }
  if (index.sameLines) return { line: line - 1, character: measure(text.slice(0, within), enc) };
  return positionAt(index.server, index.lineStart(line - 1) + within, enc);
}

/**
 * LSP position from a server's answer (in the lines of `index.answers`) → client 1-based
 * {line, column}. Servers are not trusted
 * (SPEC §8): a character past the end of its line maps to the end of the line, a line past
 * the end maps to the end of the text, a character inside a code point maps to that code
 * point's start, negatives map to 0. This tolerance is for server output only, never for
 * tool input.
 */
export function lspToClient(
  index: LineIndex,
  pos: LspPosition,
  enc: PositionEncoding,
  unit: ColumnUnit,
): { line: number; column: number } {
  // open documents are converted per position, and most text is ASCII
  if (index.ascii && index.sameAnswerLines) return asciiToClient(index, pos);
  const lines = index.answers;
  const rawLine = Number.isFinite(pos.line) ? Math.max(0, Math.trunc(pos.line)) : 0;
  let line0 = rawLine;
  let within: number;
  if (rawLine >= lines.lineCount) {
    line0 = lines.lineCount - 1;
    within = lines.lineEnd(line0) - lines.lineStart(line0);
  } else {
    const character = Number.isFinite(pos.character) ? Math.max(0, pos.character) : 0;
    within = lineOffsetForUnitsFloor(lines.lineText(line0), character, enc);
  }
  const at = positionAt(index, lines.lineStart(line0) + within, unitToEncoding(unit));
  return { line: at.line + 1, column: at.character + 1 };
}
