/**
 * symbol_source (SPEC §4.1, §4.3): which document symbol a call names — by a position,
 * the innermost symbol whose range holds it — and the text over its range, cut from the
 * text the server was given, with `context` whole lines around. Pure: the tool passes the
 * normalized tree and the open document's line table.
 */
import type { ColumnUnit } from "../config/types.ts";
import { clientOffsetFloor, type LineIndex, measure, unitToEncoding } from "../text/positions.ts";
import type { SymbolMatch } from "./symbol-path.ts";
import type { Range, SymbolNode } from "./types.ts";

/** The most lines of `context` a call may ask for on each side. */
export const MAX_SOURCE_CONTEXT = 50;

function holds(range: Range, line: number, column: number): boolean {
  const afterStart = line > range.line || (line === range.line && column >= range.column);
  const beforeEnd =
    line < range.end_line || (line === range.end_line && column <= range.end_column);
  return afterStart && beforeEnd;
}

/**
 * The innermost symbol whose range holds the position (client units; the end counts as
 * inside, so a position just past a symbol's last character still names it); among
 * siblings that both hold it, the first in canonical order. Undefined outside every symbol.
 */
export function symbolAt(
  tree: readonly SymbolNode[],
  line: number,
  column: number,
): SymbolMatch | undefined {
  let found: SymbolMatch | undefined;
  const visit = (nodes: readonly SymbolNode[], ancestors: string[]): void => {
    const node = nodes.find((n) => holds(n.range, line, column));
    if (node === undefined) return;
    found = { node, ancestors, word: node.name };
    visit(node.children, [...ancestors, node.name]);
  };
  visit(tree, []);
  return found;
}

/**
 * A symbol's range from its declaration's keyword: a range that starts after `type` alone
 * on its line starts at `type` (gopls starts a Go type's range at its name; in a grouped
 * `type (…)` declaration the line holds no keyword, and the range stays).
 */
export function fromKeyword(index: LineIndex, range: Range, unit: ColumnUnit): Range {
  if (range.line < 1 || range.line > index.lineCount) return range;
  const start = index.lineStart(range.line - 1);
  const before = index.text.slice(start, clientOffsetFloor(index, range.line, range.column, unit));
  const rest = before.trimStart();
  const keyword = "type";
  if (!rest.startsWith(keyword) || rest.length === keyword.length) return range;
  if (rest.slice(keyword.length).trim() !== "") return range;
  const indent = before.slice(0, before.length - rest.length);
  return { ...range, column: measure(indent, unitToEncoding(unit)) + 1 };
}

/** A symbol's text: over `range`, or over whole lines around it (`text_range` says which). */
export interface SourceText {
  text: string;
  /** the range `text` covers, when `context` widened it to whole lines */
  text_range?: Range;
}

/**
 * The text of `index` over `range` (client units), or with `context` > 0 over the whole
 * lines from `context` lines before its start to `context` lines after its end, clipped to
 * the file (the last line's terminator left out).
 */
export function sourceText(
  index: LineIndex,
  range: Range,
  context: number,
  unit: ColumnUnit,
): SourceText {
  if (context <= 0) {
    const from = clientOffsetFloor(index, range.line, range.column, unit);
    const to = clientOffsetFloor(index, range.end_line, range.end_column, unit);
    return { text: index.text.slice(from, Math.max(from, to)) };
  }
  const first = Math.max(1, range.line - context);
  const last = Math.min(index.lineCount, Math.max(range.end_line, range.line) + context);
  const from = index.lineStart(first - 1);
  const to = Math.max(from, index.lineEnd(last - 1));
  const width = measure(index.lineText(last - 1), unitToEncoding(unit));
  return {
    text: index.text.slice(from, to),
    text_range: { line: first, column: 1, end_line: last, end_column: width + 1 },
  };
}

/** The dotted path of a match (`Outer.Inner.depth`), the server's names. */
export function symbolPathOf(m: SymbolMatch): string {
  return [...m.ancestors, m.node.name].join(".");
}
