/**
 * A range of whole lines a tool asks the server about (inlay_hints, formatting): 1-based
 * `start_line`..`end_line` inclusive in the client's lines (SPEC §4.2), from the first
 * line's start to the last line's end, as the server reads positions (SPEC §5). Either
 * bound may be left out: the file's first or last line.
 */
import { z } from "zod";
import type { ColumnUnit } from "../../config/types.ts";
import {
  clientToLsp,
  type LineIndex,
  type LspRange,
  measure,
  unitToEncoding,
} from "../../text/positions.ts";
import type { FileCall } from "./common.ts";
import { linesReversed } from "./tool-errors.ts";

// a line outside the file is PositionOutOfRange, with the file's line count (lineRange)
export const lineRangeShape = {
  start_line: z.number().int().optional(),
  end_line: z.number().int().optional(),
};

export interface LineRangeArgs {
  start_line?: number | undefined;
  end_line?: number | undefined;
}

/** The column just past a line's end in the client's unit; 1 for a line outside the file (rejected next). */
export function lineEndColumn(index: LineIndex, line: number, unit: ColumnUnit): number {
  if (line < 1 || line > index.lineCount) return 1;
  return measure(index.lineText(line - 1), unitToEncoding(unit)) + 1;
}

/** The server's range for the lines asked (the whole file without bounds); checked. */
export function lineRange(call: FileCall, unit: ColumnUnit, args: LineRangeArgs): LspRange {
  const { index } = call.doc;
  const first = args.start_line ?? 1;
  const last = args.end_line ?? index.lineCount;
  if (first > last) {
    throw linesReversed(first, last);
  }
  const enc = call.session.process.encoding;
  return {
    start: clientToLsp(index, first, 1, unit, enc),
    end: clientToLsp(index, last, lineEndColumn(index, last, unit), unit, enc),
  };
}
