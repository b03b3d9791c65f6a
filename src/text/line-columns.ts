/**
 * What server → client position conversion needs to know about a file (SPEC §5): for
 * pure-ASCII text whose lines the server counts as the client does, only each line's
 * length — every encoding counts one unit per character there, so a column converts as is
 * and only the tolerant clamping of lspToClient remains — and for any other text the full
 * LineIndex (with the server's lines beside the client's). The ASCII form keeps 4 bytes per
 * line instead of the text, which is what lets converted files stay cached across calls
 * cheaply. A call pays for what a table costs, lines included (SPEC §5.1).
 */
import type { ColumnUnit } from "../config/types.ts";
import { asciiToClient, type LineLengths } from "./ascii-columns.ts";
import { LineIndex, NON_ASCII } from "./line-index.ts";
import { contentEnd, type LineModel, LSP_LINES, sameLineStarts } from "./line-model.ts";
import { BYTES_PER_LINE, LineStarts } from "./line-starts.ts";
import { type LspPosition, lspToClient, type PositionEncoding } from "./positions.ts";

/** Line lengths of a pure-ASCII text; line terminators as LineIndex: "\r\n", "\n", lone "\r". */
export class AsciiLines implements LineLengths {
  readonly lineCount: number;
  /** the text's size: its bytes, one a character */
  readonly textBytes: number;
  /** each line's length, without its terminator */
  private readonly lengths: Uint32Array;

  /** `counted`: the client's lines of `text`, whose starts become the lengths (in place) */
  constructor(text: string, counted = new LineStarts(text, LSP_LINES)) {
    this.lengths = lengthsOf(text, counted.all());
    this.lineCount = this.lengths.length;
    this.textBytes = text.length;
  }

  /** bytes this table holds */
  get size(): number {
    return this.lengths.byteLength;
  }

  lineLength(line0: number): number {
    return this.lengths[line0] as number;
  }

  /** lspToClient's result for this text, without the text (same clamping rules). */
  toClient(pos: LspPosition): { line: number; column: number } {
    return asciiToClient(this, pos);
  }
}

/** Each line's length without its terminator, over the starts of LSP's lines (in place). */
function lengthsOf(text: string, starts: Uint32Array): Uint32Array {
  const last = starts.length - 1;
  // without a CR every terminator is one LF
  const lfOnly = text.indexOf("\r") === -1;
  for (let line = 0; line < last; line++) {
    const next = starts[line + 1] as number;
    const end = lfOnly ? next - 1 : contentEnd(text, next, LSP_LINES);
    starts[line] = end - (starts[line] as number);
  }
  starts[last] = text.length - (starts[last] as number);
  return starts;
}

/** Lines an AsciiLines may always have; past them, at least MIN_LINE characters a line. */
const EAGER_LINES = 65_536;
const MIN_LINE = 8;

export type LineColumns = LineIndex | AsciiLines;

/**
 * What a call has of a file's lines (SPEC §5.1): its table; `"budget"` when the call's
 * byte budget was spent before the file (its positions stay the server's); undefined when
 * it cannot be read.
 */
export type FileLines = LineColumns | "budget" | undefined;

/**
 * The conversion table for a text whose server counts lines in `model`: AsciiLines when it
 * is pure ASCII, the server's lines are the client's and they are not many and short (its
 * starts are all found at once), else a LineIndex.
 */
export function lineColumnsOf(text: string, model: LineModel = LSP_LINES): LineColumns {
  return lineColumnsWithin(text, model, Number.POSITIVE_INFINITY) as LineColumns;
}

/**
 * What a call's budget charges for converting with a text's table (SPEC §5.1, §8.2): the
 * text's bytes, and each line of every table the conversion uses — the client's, and the
 * server's where its lines differ.
 */
export function tableCost(textBytes: number, lines: number): number {
  return textBytes + lines * BYTES_PER_LINE;
}

/** tableCost of a table made (an open document's, one kept across calls). */
export function callCost(lines: LineColumns): number {
  return lines instanceof AsciiLines
    ? tableCost(lines.textBytes, lines.lineCount)
    : tableCost(lines.textBytes, lines.answerTableLines);
}

/**
 * lineColumnsOf when its callCost is at most `maxCost`, else "budget": the lines counted
 * before any table is made.
 */
export function lineColumnsWithin(
  text: string,
  model: LineModel,
  maxCost: number,
): LineColumns | "budget" {
  const ascii = !NON_ASCII.test(text);
  const client = new LineStarts(text, LSP_LINES);
  const server = sameLineStarts(text, model) ? client : new LineStarts(text, model);
  const lines = client.length + (server === client ? 0 : server.length);
  const bytes = ascii ? text.length : Buffer.byteLength(text, "utf8");
  if (tableCost(bytes, lines) > maxCost) return "budget";
  // a table without its text is filled at once: a LineIndex fills a block when asked
  const eager = client.length <= EAGER_LINES || client.length * MIN_LINE <= text.length;
  return ascii && server === client && eager
    ? new AsciiLines(text, client)
    : new LineIndex(text, model, model, { counted: [client, server] });
}

/** Server position → client 1-based {line, column} over either table (see lspToClient). */
export function columnsToClient(
  lines: LineColumns,
  pos: LspPosition,
  enc: PositionEncoding,
  unit: ColumnUnit,
): { line: number; column: number } {
  return lines instanceof AsciiLines ? lines.toClient(pos) : lspToClient(lines, pos, enc, unit);
}

/** Bytes a table keeps alive (text as UTF-16 plus its line starts), for cache budgets. */
export function columnsSize(lines: LineColumns): number {
  return lines instanceof AsciiLines ? lines.size : lines.text.length * 2 + lines.tableBytes;
}
