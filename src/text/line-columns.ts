/**
 * What server → client position conversion needs to know about a file (SPEC §5): for
 * pure-ASCII text whose lines the server counts as the client does, only each line's
 * length — every encoding counts one unit per character there, so a column converts as is
 * and only the tolerant clamping of lspToClient remains — and for any other text the full
 * LineIndex (with the server's lines beside the client's). The ASCII form keeps 4 bytes per
 * line instead of the text, which is what lets converted files stay cached across calls
 * cheaply.
 */
import type { ColumnUnit } from "../config/types.ts";
import { asciiToClient, type LineLengths } from "./ascii-columns.ts";
import { LineIndex, NON_ASCII } from "./line-index.ts";
import { type LineModel, LSP_LINES, sameLineStarts } from "./line-model.ts";
import { type LspPosition, lspToClient, type PositionEncoding } from "./positions.ts";

/** Line lengths of a pure-ASCII text; line terminators as LineIndex: "\r\n", "\n", lone "\r". */
export class AsciiLines implements LineLengths {
  readonly lineCount: number;
  /** each line's length, without its terminator */
  readonly lengths: Uint32Array;

  constructor(text: string) {
    // the client's lines, counted once; only their lengths are kept
    const index = new LineIndex(text);
    const lengths = new Uint32Array(index.lineCount);
    for (let line = 0; line < lengths.length; line++) lengths[line] = index.lineLength(line);
    this.lengths = lengths;
    this.lineCount = lengths.length;
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

export type LineColumns = LineIndex | AsciiLines;

/**
 * What a call has of a file's lines (SPEC §5.1): its table; `"budget"` when the call's
 * byte budget was spent before the file (its positions stay the server's); undefined when
 * it cannot be read.
 */
export type FileLines = LineColumns | "budget" | undefined;

/**
 * The conversion table for a text whose server counts lines in `model`: AsciiLines when it
 * is pure ASCII and the server's lines are the client's, else a LineIndex.
 */
export function lineColumnsOf(text: string, model: LineModel = LSP_LINES): LineColumns {
  return NON_ASCII.test(text) || !sameLineStarts(text, model)
    ? new LineIndex(text, model)
    : new AsciiLines(text);
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

/** Bytes a table keeps alive (text as UTF-16 plus two offsets per line), for cache budgets. */
export function columnsSize(lines: LineColumns): number {
  return lines instanceof AsciiLines ? lines.size : lines.text.length * 2 + lines.tableBytes;
}
