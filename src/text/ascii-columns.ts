/**
 * Server → client positions in pure-ASCII text (SPEC §5): every encoding and unit counts
 * one per character there, so a column is the server's character clamped to its line, with
 * lspToClient's tolerance (positions.ts). Only line lengths are needed: a LineIndex of ASCII
 * text and the text-less AsciiLines (line-columns.ts) both provide them.
 */

/** A client range (1-based, SPEC §5) a conversion writes its result into. */
export interface ClientRange {
  line: number;
  column: number;
  end_line: number;
  end_column: number;
}

/** What converting a position in pure-ASCII text needs: each line's length. */
export interface LineLengths {
  readonly lineCount: number;
  lineLength(line0: number): number;
}

/** lspToClient for pure-ASCII text (same tolerance of non-integer and negative input). */
export function asciiToClient(
  lines: LineLengths,
  pos: { line: number; character: number },
): { line: number; column: number } {
  const line0 = Number.isFinite(pos.line) ? Math.max(0, Math.trunc(pos.line)) : 0;
  const character = Number.isFinite(pos.character) ? Math.max(0, Math.floor(pos.character)) : 0;
  return {
    line: asciiClientLine(lines, line0),
    column: asciiClientColumn(lines, line0, character),
  };
}

/**
 * asciiToClient of a range's ends, each already non-negative integers, without the position
 * objects (a reference list converts hundreds of ranges): its client line and column, then
 * its end's — an end before the start collapsed to the start — written into `out`.
 */
export function asciiRangeToClient(
  lines: LineLengths,
  line0: number,
  character: number,
  endLine0: number,
  endCharacter: number,
  out: ClientRange = { line: 0, column: 0, end_line: 0, end_column: 0 },
): ClientRange {
  // asciiClientLine and asciiClientColumn of both ends, inline: this runs per location
  const count = lines.lineCount;
  const line = line0 >= count ? count : line0 + 1;
  const column =
    line0 >= count
      ? lines.lineLength(count - 1) + 1
      : Math.min(character, lines.lineLength(line0)) + 1;
  const endLine = endLine0 >= count ? count : endLine0 + 1;
  const endColumn =
    endLine0 >= count
      ? lines.lineLength(count - 1) + 1
      : Math.min(endCharacter, lines.lineLength(endLine0)) + 1;
  const collapsed = endLine < line || (endLine === line && endColumn < column);
  out.line = line;
  out.column = column;
  out.end_line = collapsed ? line : endLine;
  out.end_column = collapsed ? column : endColumn;
  return out;
}

/**
 * asciiToClient's line for a server line already a non-negative integer: past the last
 * line, the last line (its end is the column).
 */
function asciiClientLine(lines: LineLengths, line0: number): number {
  return line0 >= lines.lineCount ? lines.lineCount : line0 + 1;
}

/** asciiToClient's column for a server line and character already non-negative integers. */
function asciiClientColumn(lines: LineLengths, line0: number, character: number): number {
  if (line0 >= lines.lineCount) return lines.lineLength(lines.lineCount - 1) + 1;
  return Math.min(character, lines.lineLength(line0)) + 1;
}
