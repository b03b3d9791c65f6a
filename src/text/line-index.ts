/**
 * A text's line table (SPEC §5), as the client counts lines — LSP's model, CR, LF and CRLF
 * — and, beside it, as the text's server counts them (line-model.ts): `server` where it
 * reads positions, `answers` where it reports them (the same unless the server counts the
 * two apart, as clangd does). Most texts have the same lines in every model: then each is
 * the index itself, or shares its line starts when only where a line's content ends
 * differs (a CR LF for a server that breaks at LF alone). Otherwise it is a second table
 * over the same text, and positions move between the two through text offsets
 * (positions.ts).
 *
 * Offsets are UTF-16 code-unit offsets into the JS string.
 */
import type { LineLengths } from "./ascii-columns.ts";
import {
  contentEnd,
  type LineModel,
  LSP_LINES,
  lineStartsOf,
  sameLineStarts,
} from "./line-model.ts";

/** any UTF-16 code unit above ASCII (surrogates included) */
export const NON_ASCII = /[\u0080-\uffff]/;

/** Lines counted in one model: where each starts, and the model (where each content ends). */
interface Counted {
  model: LineModel;
  starts: number[];
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
  private readonly starts: number[];

  /**
   * `text`'s lines as LSP counts them, and as a server of model `server` reads positions
   * and of model `answers` reports them (LSP's by default: the client's table alone).
   * `counted` is for the server's tables only.
   */
  constructor(
    text: string,
    server: LineModel = LSP_LINES,
    answers: LineModel = server,
    counted?: Counted,
  ) {
    this.text = text;
    const own = counted ?? {
      model: LSP_LINES,
      starts: lineStartsOf(text, LSP_LINES),
      ascii: !NON_ASCII.test(text),
    };
    this.model = own.model;
    this.starts = own.starts;
    this.ascii = own.ascii;
    this.lineCount = own.starts.length;
    if (counted !== undefined) {
      this.server = this;
      this.answers = this;
      return;
    }
    this.server = server.key === own.model.key ? this : this.twin(server);
    this.answers =
      answers.key === server.key
        ? this.server
        : answers.key === own.model.key
          ? this
          : this.twin(answers);
  }

  /** The table of the server's model: the starts shared where they are the same. */
  private twin(model: LineModel): LineIndex {
    const starts = sameLineStarts(this.text, model) ? this.starts : lineStartsOf(this.text, model);
    if (starts === this.starts && model.crlf === this.model.crlf) return this;
    return new LineIndex(this.text, model, model, { model, starts, ascii: this.ascii });
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
    const v = this.starts[line0];
    if (v === undefined) throw new RangeError(`line ${line0} outside 0..${this.lineCount - 1}`);
    return v;
  }

  /** Where the line's content ends (its terminator begins). */
  lineEnd(line0: number): number {
    this.lineStart(line0);
    const next = this.starts[line0 + 1];
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
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Bytes this table keeps alive beside its text (line starts, and the server's). */
  get tableBytes(): number {
    let bytes = this.lineCount * 8;
    if (!this.sameLines) bytes += this.server.lineCount * 8;
    if (!this.sameAnswerLines && this.answers !== this.server) bytes += this.answers.lineCount * 8;
    return bytes;
  }
}
