/**
 * The client's position in the server's terms (SPEC §4.2, §5): `line` with
 * `column`, `line` with a `symbol` anchor on that line, or `symbol` alone —
 * a name or dotted path among the file's document symbols, whose selection
 * range start is the position.
 */
import { DocumentSymbolRequest } from "vscode-languageserver-protocol";
import type { ColumnUnit } from "../../config/types.ts";
import { BridgeError } from "../../errors.ts";
import {
  candidateOf,
  findSymbols,
  matchSymbols,
  nearSymbols,
  type SymbolMatch,
} from "../../normalize/symbol-path.ts";
import { fileQualifiers } from "../../normalize/symbol-spelling.ts";
import { normalizeDocumentSymbols } from "../../normalize/symbols.ts";
import type { SymbolNode } from "../../normalize/types.ts";
import { anchorColumn } from "../../text/anchor.ts";
import {
  clientOffsetFloor,
  clientToLsp,
  type LineIndex,
  type LspPosition,
  measure,
  unitToEncoding,
} from "../../text/positions.ts";
import { MAX_SYMBOL_LENGTH, type PositionArgs } from "../conventions.ts";
import type { CallContext } from "../tool.ts";
import type { FileCall } from "./common.ts";
import {
  ambiguousSymbol,
  combinationRefused,
  symbolEmpty,
  symbolNotFound,
  symbolTooLong,
} from "./tool-errors.ts";

/** A resolved position: the client's 1-based line and column, and the server's. */
export interface ResolvedPosition {
  line: number;
  column: number;
  lsp: LspPosition;
}

/** At most this many candidates in AmbiguousSymbol's details (the count says how many). */
const MAX_CANDIDATES = 20;

/** textDocument/documentSymbol for the call's document, as one normalized tree. */
export async function documentSymbolTree(call: FileCall): Promise<SymbolNode[]> {
  call.session.requireCapability("documentSymbolProvider", "textDocument/documentSymbol");
  const raw = await call.session.request(
    DocumentSymbolRequest.type,
    { textDocument: { uri: call.doc.uri } },
    call.wait,
  );
  return normalizeDocumentSymbols(raw, call.doc.uri, call.norm);
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}_$]/u;

/**
 * Where `word` starts on `line` at or after `column` (client unit): `column` itself when
 * the word is there, else its first whole-identifier occurrence after it on the line.
 * A server may start a selection before the name (typescript-language-server's overloads
 * start theirs at `export`).
 */
export function wordColumnFrom(
  index: LineIndex,
  line: number,
  column: number,
  word: string,
  unit: ColumnUnit,
): number {
  if (word.length === 0 || line < 1 || line > index.lineCount) return column;
  const text = index.lineText(line - 1);
  const from = clientOffsetFloor(index, line, column, unit) - index.lineStart(line - 1);
  if (text.startsWith(word, from)) return column;
  for (let at = text.indexOf(word, from); at !== -1; at = text.indexOf(word, at + 1)) {
    const before = at > 0 && WORD_CHAR.test(text[at - 1] as string);
    const after = WORD_CHAR.test(text[at + word.length] ?? "");
    if (!before && !after) return measure(text.slice(0, at), unitToEncoding(unit)) + 1;
  }
  return column;
}

/** Where a match's name starts (client units). */
function nameAt(call: FileCall, m: SymbolMatch, unit: ColumnUnit) {
  const { line, column } = m.node.selection;
  return { line, column: wordColumnFrom(call.doc.index, line, column, m.word, unit) };
}

/**
 * `symbol` without `line`: the one document symbol it names, or SymbolNotFound (naming
 * near names) or AmbiguousSymbol (listing the candidates where their names start).
 */
export async function uniqueSymbol(
  call: FileCall,
  symbol: string,
  unit: ColumnUnit,
): Promise<SymbolMatch> {
  checkSymbol(symbol);
  const tree = await documentSymbolTree(call);
  const matches = findSymbols(tree, symbol, fileQualifiers(call.doc.text));
  const [only] = matches;
  if (only === undefined) {
    const near = nearSymbols(tree, symbol);
    throw symbolNotFound(call.rel, symbol, near);
  }
  if (matches.length > 1) {
    const candidates = matches
      .slice(0, MAX_CANDIDATES)
      .map((m) => candidateOf(m, nameAt(call, m, unit)));
    throw ambiguousSymbol(call.rel, symbol, matches.length, candidates);
  }
  return only;
}

/**
 * `symbol` with `line`, read as a name or path: the document symbols it names whose name
 * is on that line (declarations beside definitions: the line tells them apart).
 */
export async function symbolsOnLine(
  call: FileCall,
  symbol: string,
  line: number,
): Promise<SymbolMatch[]> {
  checkSymbol(symbol);
  const tree = await documentSymbolTree(call);
  const matches = matchSymbols(tree, symbol, fileQualifiers(call.doc.text));
  return matches.filter((m) => m.node.selection.line === line);
}

function checkSymbol(symbol: string): void {
  if (symbol.length === 0) {
    throw symbolEmpty();
  }
  if (symbol.length > MAX_SYMBOL_LENGTH) {
    throw symbolTooLong(symbol.length, MAX_SYMBOL_LENGTH);
  }
}

/**
 * `symbol` on `line`: where the text is on the line; text that is not there, the name of
 * the one document symbol it names on that line (the `line` an AmbiguousSymbol candidate
 * gives, with a path such as `Box.over`), else SymbolNotOnLine.
 */
async function anchorOrName(
  call: FileCall,
  line: number,
  symbol: string,
  occurrence: number | undefined,
  unit: ColumnUnit,
): Promise<number> {
  try {
    return anchorColumn(call.doc.index, line, symbol, occurrence, unit);
  } catch (e) {
    if (!(e instanceof BridgeError) || e.code !== "SymbolNotOnLine" || occurrence !== undefined) {
      throw e;
    }
    // a server that cannot list the document's symbols leaves the text's own answer
    const [only, more] = await symbolsOnLine(call, symbol, line).catch(() => []);
    if (only === undefined || more !== undefined) throw e;
    return nameAt(call, only, unit).column;
  }
}

/** The position of a call's arguments, checked (no clamping, SPEC §4.2). */
export async function resolvePosition(
  ctx: CallContext,
  call: FileCall,
  args: PositionArgs,
): Promise<ResolvedPosition> {
  const unit = ctx.bridge.config.bridge.column_unit;
  if (args.column !== undefined && args.symbol !== undefined) {
    throw combinationRefused(
      "give either `column` or `symbol`, not both",
      "use `symbol` to anchor on text, or `column` for an exact position",
    );
  }
  if (args.occurrence !== undefined && (args.symbol === undefined || args.line === undefined)) {
    throw combinationRefused(
      "`occurrence` needs `line` and `symbol`",
      "pass `line` and `symbol` with `occurrence`, or drop `occurrence`",
    );
  }
  if (args.symbol !== undefined) checkSymbol(args.symbol);
  let line = args.line;
  let column = args.column;
  if (line === undefined) {
    if (column !== undefined) {
      throw combinationRefused("`column` needs `line`", "pass `line` too, or `symbol` alone");
    }
    if (args.symbol === undefined) {
      throw combinationRefused(
        "a position needs `line` with `column` or `symbol`, or `symbol` alone",
        "pass `symbol` (a name or dotted path) without `line`, or `line` with `column`",
      );
    }
    ({ line, column } = nameAt(call, await uniqueSymbol(call, args.symbol, unit), unit));
  } else if (column === undefined) {
    if (args.symbol === undefined) {
      throw combinationRefused(
        "a position needs `column` or `symbol`",
        "pass `column` (1-based) or `symbol` (exact text on the line)",
      );
    }
    column = await anchorOrName(call, line, args.symbol, args.occurrence, unit);
  }
  const lsp = clientToLsp(call.doc.index, line, column, unit, call.session.process.encoding);
  return { line, column, lsp };
}

/** `{textDocument, position}` for the call's arguments. */
export async function textDocumentPosition(ctx: CallContext, call: FileCall, args: PositionArgs) {
  const at = await resolvePosition(ctx, call, args);
  return { textDocument: { uri: call.doc.uri }, position: at.lsp };
}
