/**
 * Position conversion between the client convention (1-based line, 1-based column in the
 * configured `column_unit`) and LSP positions (0-based, in the negotiated server encoding).
 * SPEC §4.2 (no clamping of tool input), §5 (exact for astral characters, CRLF and lone CR).
 *
 * Internally every text offset is a UTF-16 code-unit offset into a JS string; the encodings
 * only decide how a column is counted.
 */

import type { ColumnUnit } from "../config/types.ts";
import { BridgeError } from "../errors.ts";
import { asciiToClient, type LineLengths } from "./ascii-columns.ts";

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

/** any UTF-16 code unit above ASCII (surrogates included) */
export const NON_ASCII = /[\u0080-\uffff]/;

/** Line table over a text. Line terminators: "\r\n", "\n" and a lone "\r" (SPEC §5). */
export class LineIndex implements LineLengths {
  readonly text: string;
  readonly lineCount: number;
  /** pure ASCII: every encoding and unit counts one per character (lspToClient's fast path) */
  readonly ascii: boolean;
  /** UTF-16 offset of each line's first character */
  private readonly starts: number[];
  /** UTF-16 offset of each line's content end (where its terminator begins) */
  private readonly ends: number[];
  private lengths: Uint32Array | undefined;

  constructor(text: string) {
    this.text = text;
    const starts = [0];
    const ends: number[] = [];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a || c === 0x0d) {
        ends.push(i);
        if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
        starts.push(i + 1);
      }
    }
    ends.push(text.length);
    this.starts = starts;
    this.ends = ends;
    this.lineCount = starts.length;
    this.ascii = !NON_ASCII.test(text);
  }

  lineStart(line0: number): number {
    return this.checked(this.starts, line0);
  }

  lineEnd(line0: number): number {
    return this.checked(this.ends, line0);
  }

  lineLength(line0: number): number {
    return this.lineEnd(line0) - this.lineStart(line0);
  }

  lineText(line0: number): string {
    return this.text.slice(this.lineStart(line0), this.lineEnd(line0));
  }

  /** 0-based line containing `offset` (an offset inside a terminator belongs to its line). */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /**
   * Each line's length when the text is pure ASCII (else undefined), made on first use: the
   * range converter clamps an ASCII document's positions on it without a call per position
   * (src/normalize/range-converter.ts), as it does on the text-free AsciiLines.
   */
  asciiLineLengths(): Uint32Array | undefined {
    if (!this.ascii) return undefined;
    if (this.lengths === undefined) {
      const lengths = new Uint32Array(this.lineCount);
      for (let i = 0; i < lengths.length; i++) {
        lengths[i] = (this.ends[i] as number) - (this.starts[i] as number);
      }
      this.lengths = lengths;
    }
    return this.lengths;
  }

  private checked(table: number[], line0: number): number {
    const v = table[line0];
    if (v === undefined) throw new RangeError(`line ${line0} outside 0..${this.lineCount - 1}`);
    return v;
  }
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

/** LSP position → UTF-16 offset into index.text; undefined when the line is past the end or the character is past the line end or splits a character. */
export function lspPositionToOffset(
  index: LineIndex,
  pos: LspPosition,
  enc: PositionEncoding,
): number | undefined {
  if (!Number.isInteger(pos.line) || pos.line < 0 || pos.line >= index.lineCount) return undefined;
  const within = lineOffsetForUnits(index.lineText(pos.line), pos.character, enc);
  return within === undefined ? undefined : index.lineStart(pos.line) + within;
}

/**
 * UTF-16 offset → LSP position. Offsets are clamped into the text; an offset inside a line
 * terminator maps to the line end, one inside a surrogate pair to the pair's start.
 */
export function offsetToLspPosition(
  index: LineIndex,
  offset: number,
  enc: PositionEncoding,
): LspPosition {
  let off = Math.min(Math.max(0, Math.trunc(offset)), index.text.length);
  const line = index.lineOf(off);
  off = Math.min(off, index.lineEnd(line));
  const start = index.lineStart(line);
  if (off > start && isLowSurrogate(index.text.charCodeAt(off))) {
    if (isHighSurrogate(index.text.charCodeAt(off - 1))) off--;
  }
  return { line, character: measure(index.text.slice(start, off), enc) };
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function outOfRange(
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
  const where = column === null ? `line ${line}` : `position ${line}:${column}`;
  return new BridgeError("PositionOutOfRange", `${where} ${why}`, {
    hint:
      `lines are 1..${index.lineCount}; columns are 1-based in ${unit} units and may be at most ` +
      "the line length + 1; or pass `symbol` instead of `column`",
    details: { line, column, line_count: index.lineCount, line_length: lineLength },
  });
}

function requireLine(
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
  return { line: line - 1, character: measure(text.slice(0, within), enc) };
}

/**
 * LSP position from a server → client 1-based {line, column}. Servers are not trusted
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
  if (index.ascii) return asciiToClient(index, pos);
  const rawLine = Number.isFinite(pos.line) ? Math.max(0, Math.trunc(pos.line)) : 0;
  let line0 = rawLine;
  let within: number;
  if (rawLine >= index.lineCount) {
    line0 = index.lineCount - 1;
    within = index.lineEnd(line0) - index.lineStart(line0);
  } else {
    const character = Number.isFinite(pos.character) ? Math.max(0, pos.character) : 0;
    within = lineOffsetForUnitsFloor(index.lineText(line0), character, enc);
  }
  const prefix = index.text.slice(index.lineStart(line0), index.lineStart(line0) + within);
  return { line: line0 + 1, column: measure(prefix, unitToEncoding(unit)) + 1 };
}

const IDENTIFIER_CHAR = /[\p{L}\p{N}\p{M}_$]/u;

/** Is the code point ending just before UTF-16 index `i` an identifier character? */
function identifierBefore(s: string, i: number): boolean {
  if (i <= 0) return false;
  const from = i >= 2 && isLowSurrogate(s.charCodeAt(i - 1)) ? i - 2 : i - 1;
  return IDENTIFIER_CHAR.test(String.fromCodePoint(s.codePointAt(from) as number));
}

function identifierAt(s: string, i: number): boolean {
  if (i >= s.length) return false;
  return IDENTIFIER_CHAR.test(String.fromCodePoint(s.codePointAt(i) as number));
}

/**
 * `symbol` anchor (SPEC §4.2): the 1-based column (client unit) of the `occurrence`-th
 * (1-based, default 1) exact occurrence of `symbol` on 1-based `line`.
 *
 * Whole-identifier matches (not embedded in a longer identifier) are preferred when any
 * exist, else plain substring matches count. Identifier characters are Unicode letters,
 * digits, marks, `_` and `$` (a superset of [A-Za-z0-9_$], so `café` is not found inside
 * `caféine`). A boundary is only checked on an edge of `symbol` that is itself an
 * identifier character, so operators like `->` still anchor. Occurrences are
 * non-overlapping, scanned left to right.
 */
export function anchorColumn(
  index: LineIndex,
  line: number,
  symbol: string,
  occurrence: number | undefined,
  unit: ColumnUnit,
): number {
  const nth = occurrence ?? 1;
  if (symbol.length === 0) {
    throw new BridgeError("InvalidArgument", "`symbol` must not be empty", {
      hint: "pass the exact text of the identifier on that line, or a `column`",
    });
  }
  if (!Number.isInteger(nth) || nth < 1) {
    throw new BridgeError("InvalidArgument", "`occurrence` must be an integer >= 1", {
      hint: "occurrence counts matches on the line from 1, left to right",
    });
  }
  requireLine(index, line, null, unit);
  const text = index.lineText(line - 1);
  const checkStart = identifierAt(symbol, 0);
  const checkEnd = identifierBefore(symbol, symbol.length);
  const all: number[] = [];
  const whole: number[] = [];
  for (let at = text.indexOf(symbol); at !== -1; at = text.indexOf(symbol, at + symbol.length)) {
    all.push(at);
    const startOk = !checkStart || !identifierBefore(text, at);
    const endOk = !checkEnd || !identifierAt(text, at + symbol.length);
    if (startOk && endOk) whole.push(at);
  }
  const matches = whole.length > 0 ? whole : all;
  const at = matches[nth - 1];
  if (at === undefined) {
    const message =
      matches.length === 0
        ? `\`${symbol}\` does not occur on line ${line}`
        : `\`${symbol}\` occurs ${matches.length} time(s) on line ${line}, not ${nth}`;
    throw new BridgeError("SymbolNotOnLine", message, {
      hint:
        matches.length === 0
          ? "symbol must be the exact text as it appears on that line (case-sensitive); check the line number"
          : `pass occurrence between 1 and ${matches.length}`,
      details: { line, symbol, occurrence: nth, found: matches.length },
    });
  }
  return measure(text.slice(0, at), unitToEncoding(unit)) + 1;
}
