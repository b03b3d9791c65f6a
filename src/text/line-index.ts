/**
 * A text's line table (SPEC §5), as the client counts lines — LSP's model, CR, LF and CRLF
 * — and, beside it, as the text's server counts them (line-model.ts): `server` where it
 * reads positions, `answers` where it reports them (the same unless the server counts the
 * two apart, as clangd does). Most texts have the same lines in every model: then each is
 * the index itself, or shares its line starts when only where a line's content ends
 * differs (a CR LF for a server that breaks at LF alone). Otherwise it is a second table
 * over the same text, and positions move between the two through text offsets
 * (positions.ts). A table is its line starts, 4 bytes a line (line-starts.ts): its cost is
 * what it holds, whatever the text (SPEC §8.2).
 *
 * Offsets are UTF-16 code-unit offsets into the JS string.
 */
import type { LineLengths } from "./ascii-columns.ts";
import { contentEnd, type LineModel, LSP_LINES, sameLineStarts } from "./line-model.ts";
import { BYTES_PER_LINE, LineStarts } from "./line-starts.ts";

/** any UTF-16 code unit above ASCII (surrogates included) */
export const NON_ASCII = /[\u0080-\uffff]/;

/** Lines counted in one model: where each starts, and the model (where each content ends). */
interface Counted {
  model: LineModel;
  starts: LineStarts;
  ascii: boolean;
}

export class LineIndex implements LineLengths {
  readonly text: string;
  /** the model these lines are counted in (LSP's for the client's table) */
  readonly model: LineModel;
  readonly lineCount: number;
  /** pure ASCII: every encoding and unit counts one per character (lspToClient's fast path) */
  readonly ascii: boolean;
  /** the same text's lines as its server reads positions: this index when they are the same */
  readonly server: LineIndex;
  /** … and as it counts the positions of its answers */
  readonly answers: LineIndex;
  /** UTF-16 offset of each line's first character */
  private readonly starts: LineStarts;
  /** the text's size in UTF-8, when asked */
  private utf8: number | undefined;

  /**
   * `text`'s lines as LSP counts them, and as a server of model `server` reads positions
   * and of model `answers` reports them (LSP's by default: the client's table alone).
   * `from`: the tables of the server's own model (`twin`); an index of the same text whose
   * tables are shared (`share`); or line starts counted already (`counted`: the client's,
   * and those of other models).
   */
  constructor(
    text: string,
    server: LineModel = LSP_LINES,
    answers: LineModel = server,
    from?: { twin: Counted } | { share: LineIndex } | { counted: LineStarts[] },
  ) {
    this.text = text;
    const share = from !== undefined && "share" in from ? from.share : undefined;
    const counted = from !== undefined && "counted" in from ? from.counted : [];
    const own: Counted =
      from !== undefined && "twin" in from
        ? from.twin
        : share !== undefined
          ? { model: share.model, starts: share.starts, ascii: share.ascii }
          : {
              model: LSP_LINES,
              starts:
                counted.find((c) => c.model.key === LSP_LINES.key) ??
                new LineStarts(text, LSP_LINES),
              ascii: !NON_ASCII.test(text),
            };
    this.model = own.model;
    this.starts = own.starts;
    this.ascii = own.ascii;
    this.lineCount = own.starts.length;
    if (from !== undefined && "twin" in from) {
      this.server = this;
      this.answers = this;
      return;
    }
    this.server = server.key === own.model.key ? this : this.twin(server, share, counted);
    this.answers =
      answers.key === server.key
        ? this.server
        : answers.key === own.model.key
          ? this
          : this.twin(answers, share, counted);
  }

  /** The table of the server's model: the starts shared where they are the same. */
  private twin(model: LineModel, share: LineIndex | undefined, counted: LineStarts[]): LineIndex {
    for (const kept of share === undefined ? [] : [share.server, share.answers]) {
      if (kept.model.key === model.key) return kept;
    }
    const starts = sameLineStarts(this.text, model)
      ? this.starts
      : (counted.find((c) => c.model.key === model.key) ?? new LineStarts(this.text, model));
    if (starts === this.starts && model.crlf === this.model.crlf) return this;
    return new LineIndex(this.text, model, model, { twin: { model, starts, ascii: this.ascii } });
  }

  /** Whether server and client count the same lines (each line's start is the same). */
  get sameLines(): boolean {
    return this.server.starts === this.starts;
  }

  /** Whether the server's answers count the client's lines. */
  get sameAnswerLines(): boolean {
    return this.answers.starts === this.starts;
  }

  lineStart(line0: number): number {
    const v = this.starts.at(line0);
    if (v === undefined) throw new RangeError(`line ${line0} outside 0..${this.lineCount - 1}`);
    return v;
  }

  /** Where the line's content ends (its terminator begins). */
  lineEnd(line0: number): number {
    this.lineStart(line0);
    const next = this.starts.at(line0 + 1);
    return next === undefined ? this.text.length : contentEnd(this.text, next, this.model);
  }

  lineLength(line0: number): number {
    return this.lineEnd(line0) - this.lineStart(line0);
  }

  lineText(line0: number): string {
    return this.text.slice(this.lineStart(line0), this.lineEnd(line0));
  }

  /** 0-based line containing `offset` (an offset inside a terminator belongs to its line). */
  lineOf(offset: number): number {
    return this.starts.lineOf(offset);
  }

  /** Bytes this table keeps alive beside its text at most (line starts, and the server's). */
  get tableBytes(): number {
    let lines = this.lineCount;
    if (!this.sameLines) lines += this.server.lineCount;
    if (!this.sameAnswerLines && this.answers !== this.server) lines += this.answers.lineCount;
    return lines * BYTES_PER_LINE;
  }

  /** The text's size in UTF-8: the file's bytes. */
  get textBytes(): number {
    this.utf8 ??= this.ascii ? this.text.length : Buffer.byteLength(this.text, "utf8");
    return this.utf8;
  }

  /** Lines of the tables a conversion of the server's answers uses (SPEC §5.1). */
  get answerTableLines(): number {
    return this.lineCount + (this.sameAnswerLines ? 0 : this.answers.lineCount);
  }

  /**
   * The same text's index with the server's answers counted in `model`, sharing every table
   * this one holds (a rename's edits are in the lines the server reads, SPEC §5).
   */
  withAnswers(model: LineModel): LineIndex {
    if (model.key === this.answers.model.key) return this;
    return new LineIndex(this.text, this.server.model, model, { share: this });
  }
}
