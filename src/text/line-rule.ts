/**
 * Which lines a server counts a position in, per message and per file (SPEC §5, the line
 * model): the one rule every position the bridge sends or reads goes by. A server has two
 * models — where it reads positions (`line_terminators`) and where it reports its answers
 * (`answer_line_terminators`) — and its edits count in one of them or, where the bridge
 * cannot tell which, in either (`edit_lines`: a rename's edits in the file asked about, in
 * its other files, a code action's edits). clangd builds the first from its own LF lines,
 * the second from its index (its compiler's lines), and its code actions' edits both ways
 * (docs/LANGUAGE-SERVERS.md#clangd-reads-lines-at-lf-and-answers-in-its-compilers).
 *
 * A position that may count in either model is taken only where both name the same offset
 * of the text (`PositionReader`): elsewhere the bridge would be guessing, and a write is
 * refused. A change of a whole document names the old text's end in the read model where
 * that differs from LSP's (`wholeChangeRange`): a server that turns a full-text change
 * into a ranged one counts the end in LSP's lines and hands it to a reader of others
 * (typescript-language-server to tsserver).
 */
import type { LINE_SOURCES } from "../config/schema.ts";
import { LineIndex } from "./line-index.ts";
import type { LineModel } from "./line-model.ts";
import {
  type LspPosition,
  type LspRange,
  lspPositionToOffset,
  offsetToLspPosition,
  type PositionEncoding,
} from "./positions.ts";

export type LineSource = (typeof LINE_SOURCES)[number];

/** `edit_lines`: the model of each kind of edit a server makes. */
export interface EditLines {
  /** a rename's edits in the file it was asked in */
  rename: LineSource;
  /** … in every other file */
  rename_others: LineSource;
  /** a code action's edits */
  code_action: LineSource;
}

/** A server's models and which its edits count in. */
export interface ServerLines {
  read: LineModel;
  answer: LineModel;
  edits: EditLines;
}

/**
 * What a position is part of: one the bridge sends (a request's, a change's range), one of
 * an answer (locations, symbols, hover ranges, call hierarchy, diagnostics), or an edit.
 */
export type LineMessage = "request" | "answer" | keyof EditLines;

/** The models the positions of `message` may count in: one, or both where either may be. */
export function linesFor(server: ServerLines, message: LineMessage): readonly LineModel[] {
  const source: LineSource =
    message === "request" ? "read" : message === "answer" ? "answer" : server.edits[message];
  if (source === "read") return [server.read];
  if (source === "answer" || server.read.key === server.answer.key) return [server.answer];
  return [server.read, server.answer];
}

/** The kind of a rename's edits in `file`: asked about, or another. */
export function renameMessage(file: string | null, asked: string): LineMessage {
  return file === asked ? "rename" : "rename_others";
}

/**
 * A text's lines in each model its positions may count in. `offset` is the position's
 * offset where every model names the same one, undefined where none has it, and
 * "ambiguous" where they differ.
 */
export class PositionReader {
  readonly indexes: readonly LineIndex[];

  constructor(
    readonly text: string,
    models: readonly LineModel[],
  ) {
    this.indexes = models.map((m) => new LineIndex(text, m));
  }

  offset(pos: LspPosition, enc: PositionEncoding): number | undefined | "ambiguous" {
    const [first, ...rest] = this.indexes.map((i) => lspPositionToOffset(i, pos, enc));
    return rest.every((o) => o === first) ? first : "ambiguous";
  }
}

/**
 * The range of a change that replaces the whole of `old` (its lines as the server reads
 * them): none — the text alone — where those lines are LSP's or the server takes whole
 * texts only; else from the start to the old text's end, counted in the read lines.
 */
export function wholeChangeRange(
  old: LineIndex,
  enc: PositionEncoding,
  takesRanges: boolean,
): LspRange | undefined {
  if (!takesRanges || old.sameLines) return undefined;
  return {
    start: { line: 0, character: 0 },
    end: offsetToLspPosition(old, old.text.length, enc),
  };
}
