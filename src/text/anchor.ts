/**
 * The `symbol` anchor on a line (SPEC §4.2): where the text of `symbol` starts on the
 * client's line, as a client column. Client lines only: the server's position follows from
 * it (positions.ts).
 */
import type { ColumnUnit } from "../config/types.ts";
import type { LineIndex } from "./line-index.ts";
import { anchorEmpty, occurrenceInvalid, symbolNotOnLine } from "./position-errors.ts";
import { isLowSurrogate, measure, requireLine, unitToEncoding } from "./positions.ts";

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
    throw anchorEmpty();
  }
  if (!Number.isInteger(nth) || nth < 1) {
    throw occurrenceInvalid();
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
    throw symbolNotOnLine(line, symbol, nth, matches.length);
  }
  return measure(text.slice(0, at), unitToEncoding(unit)) + 1;
}
