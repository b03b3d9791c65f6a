/**
 * What a client's position is refused for (SPEC §4.2), built in one place: a line or
 * column outside the text (never clamped), and a `symbol` anchor that is empty, counted
 * wrong or not on its line.
 */
import type { ColumnUnit } from "../config/types.ts";
import { BridgeError } from "../errors.ts";

/** `lineLength`: the line's length in `unit`, null when the line is outside the text. */
export function positionOutOfRange(
  line: number,
  column: number | null,
  why: string,
  unit: ColumnUnit,
  lineCount: number,
  lineLength: number | null,
): BridgeError {
  const where = column === null ? `line ${line}` : `position ${line}:${column}`;
  return new BridgeError("PositionOutOfRange", `${where} ${why}`, {
    hint:
      `lines are 1..${lineCount}; columns are 1-based in ${unit} units and may be at most ` +
      "the line length + 1; or pass `symbol` instead of `column`",
    details: { line, column, line_count: lineCount, line_length: lineLength },
  });
}

export function anchorEmpty(): BridgeError {
  return new BridgeError("InvalidArgument", "`symbol` must not be empty", {
    hint: "pass the exact text of the identifier on that line, or a `column`",
  });
}

export function occurrenceInvalid(): BridgeError {
  return new BridgeError("InvalidArgument", "`occurrence` must be an integer >= 1", {
    hint: "occurrence counts matches on the line from 1, left to right",
  });
}

/** `found`: how many times `symbol` occurs on the line (fewer than `occurrence`). */
export function symbolNotOnLine(
  line: number,
  symbol: string,
  occurrence: number,
  found: number,
): BridgeError {
  const message =
    found === 0
      ? `\`${symbol}\` does not occur on line ${line}`
      : `\`${symbol}\` occurs ${found} time(s) on line ${line}, not ${occurrence}`;
  return new BridgeError("SymbolNotOnLine", message, {
    hint:
      found === 0
        ? "symbol must be the exact text as it appears on that line (case-sensitive); check the line number"
        : `pass occurrence between 1 and ${found}`,
    details: { line, symbol, occurrence, found },
  });
}
