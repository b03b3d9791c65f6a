/**
 * A text's line table (SPEC §5), as the client counts lines — LSP's model, CR, LF and CRLF
 * — and, beside it, as the text's server counts them (line-model.ts). Most texts have the
 * same lines in both: then `server` is the index itself, or shares its line starts where
 * only where a line's content ends differs (a CR LF for a server that breaks at LF alone).
 * Otherwise `server` is a second table over the same text, and positions move between the
 * two through text offsets (positions.ts).
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
  /** the same text's lines as its server counts them: this index when they are the same */
  readonly server: LineIndex;
  /** UTF-16 offset of each line's first character */
  private readonly starts: number[];

  /**
   * `text`'s lines as LSP counts them, and as a server of model `server` does (LSP's by
   * default: the client's table alone). `counted` is for the server's table only.
   */
  constructor(text: string, server: LineModel = LSP_LINES, counted?: Counted) {
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
    this.server = counted !== undefined || server.key === own.model.key ? this : this.twin(server);
  }

  /** The table of the server's model: the starts shared where they are the same. */
  private twin(model: LineModel): LineIndex {
    const starts = sameLineStarts(this.text, model) ? this.starts : lineStartsOf(this.text, model);
    if (starts === this.starts && model.crlf === this.model.crlf) return this;
    return new LineIndex(this.text, model, { model, starts, ascii: this.ascii });
  }

  /** Whether server and client count the same lines (each line's start is the same). */
  get sameLines(): boolean {
    return this.server.starts === this.starts;
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
    const own = this.lineCount * 8;
    return this.sameLines ? own : own + this.server.lineCount * 8;
  }
}
