/**
 * Where each line of a text starts in a line model (line-model.ts), 4 bytes a line (SPEC §5,
 * §8.2): a text of 8 MiB may hold 8 Mi lines, and a JS array of numbers costs twice as much
 * and more while it grows. The first BLOCK lines are found at once, one native search a
 * line (never a loop over characters: docs/TOOLCHAIN.md#the-jit-policy) — most texts have
 * no more. Past them a native scan (count.ts) marks the start of every BLOCK-th line and
 * counts them all, so the table is allocated once at its size, and a block's starts are
 * filled when a position first falls in it: a hover on a file of 8 Mi empty lines fills a
 * block or two, and the table's pages are touched only where filled.
 */
import { countFrom, occurrenceEnds } from "./count.ts";
import type { LineModel } from "./line-model.ts";

/** Bytes a table holds per line. */
export const BYTES_PER_LINE = Uint32Array.BYTES_PER_ELEMENT;
/** Lines between two marks. */
const BLOCK = 4096;

/** How a block's starts are found: by the terminators the text and model have. */
type Fill = "lf" | "cr" | "crlf" | "match";

/** The source of one terminator for the count: a class when no CR LF can be one. */
function unitOf(text: string, model: LineModel): string {
  return model.cr && model.crlf && text.indexOf("\r\n") !== -1 ? model.unit : `[${model.chars}]`;
}

/** `text`'s lines in `model` (one more than its terminators). */
export function countLines(text: string, model: LineModel): number {
  return 1 + countFrom(text, `[^${model.chars}]*`, unitOf(text, model), 0);
}

export class LineStarts {
  /** lines */
  readonly length: number;
  /** each line's start, block by block as asked */
  private readonly starts: Uint32Array;
  /** where line b × BLOCK starts, and the blocks filled; null: one block, filled */
  private readonly marks: Uint32Array | null = null;
  private readonly filled: Uint8Array | null = null;
  private readonly fill: Fill;

  constructor(
    private readonly text: string,
    /** the model counted (the client's when shared with a model of the same starts) */
    readonly model: LineModel,
  ) {
    this.fill = fillOf(text, model);
    // the first block, filled now: most texts have no more lines than that
    const first = [0];
    this.fillBlock(first, 0, 0, BLOCK);
    if (first.length < BLOCK) {
      this.length = first.length;
      this.starts = new Uint32Array(first);
      return;
    }
    const unit = unitOf(text, model);
    const marks = [0, ...occurrenceEnds(text, `[^${model.chars}]*`, unit, BLOCK)];
    // the last block, shorter than BLOCK, is filled now: its length completes the count
    const lastAt = marks[marks.length - 1] as number;
    const tail = [lastAt];
    this.fillBlock(tail, 0, lastAt, BLOCK);
    this.length = (marks.length - 1) * BLOCK + tail.length;
    this.starts = new Uint32Array(this.length);
    this.starts.set(first);
    this.starts.set(tail, (marks.length - 1) * BLOCK);
    this.marks = new Uint32Array(marks);
    this.filled = new Uint8Array(marks.length);
    this.filled[0] = 1;
    this.filled[marks.length - 1] = 1;
  }

  /** Where line `line0` starts; undefined outside 0..length - 1. */
  at(line0: number): number | undefined {
    // a typed array has nothing at a negative, fractional or past-the-end index
    if (this.filled === null || this.starts[line0] === undefined) return this.starts[line0];
    this.ready((line0 / BLOCK) | 0);
    return this.starts[line0];
  }

  /** The line containing `offset` (0 before the first line's start). */
  lineOf(offset: number): number {
    if (this.marks === null) return Math.max(0, upper(this.starts, offset, 0, this.length) - 1);
    const block = Math.max(0, upper(this.marks, offset, 0, this.marks.length) - 1);
    this.ready(block);
    const from = block * BLOCK;
    const to = Math.min(this.length, from + BLOCK);
    return Math.max(from, upper(this.starts, offset, from, to) - 1);
  }

  /** Every line's start (every block filled). */
  all(): Uint32Array {
    const blocks = this.filled?.length ?? 0;
    for (let block = 0; block < blocks; block++) this.ready(block);
    return this.starts;
  }

  private ready(block: number): void {
    if (this.filled === null || this.marks === null || this.filled[block] === 1) return;
    const from = block * BLOCK;
    this.starts[from] = this.marks[block] as number;
    this.fillBlock(this.starts, from, this.marks[block] as number, BLOCK);
    this.filled[block] = 1;
  }

  /** Starts of the lines after the one at `at` (index `i`), up to `max` lines in all. */
  private fillBlock(out: Uint32Array | number[], i: number, at: number, max: number): number {
    const { text } = this;
    const end = i + max;
    let n = i + 1;
    if (this.fill === "lf" || this.fill === "cr") {
      const t = this.fill === "lf" ? "\n" : "\r";
      for (let k = text.indexOf(t, at); n < end && k !== -1; k = text.indexOf(t, k + 1)) {
        out[n++] = k + 1;
      }
    } else if (this.fill === "crlf") {
      n = fillCrLf(text, out, n, end, at);
    } else {
      const breaks = new RegExp(this.model.breaks, "g");
      breaks.lastIndex = at;
      for (let m = breaks.exec(text); n < end && m !== null; m = breaks.exec(text)) {
        out[n++] = breaks.lastIndex;
      }
    }
    return n - i;
  }
}

function fillOf(text: string, model: LineModel): Fill {
  if (model.others.size > 0) return "match";
  if (!model.cr || text.indexOf("\r") === -1) return "lf";
  if (text.indexOf("\n") === -1) return "cr";
  return model.crlf ? "crlf" : "match";
}

/** CR, LF and CR LF (LSP's lines): the next CR and the next LF, each searched once. */
function fillCrLf(
  text: string,
  out: Uint32Array | number[],
  n: number,
  end: number,
  at: number,
): number {
  let cr = text.indexOf("\r", at);
  let lf = text.indexOf("\n", at);
  while (n < end && (cr !== -1 || lf !== -1)) {
    if (lf === -1 || (cr !== -1 && cr < lf)) {
      if (lf === cr + 1) {
        out[n++] = lf + 1;
        lf = text.indexOf("\n", lf + 1);
      } else {
        out[n++] = cr + 1;
      }
      cr = text.indexOf("\r", cr + 1);
    } else {
      out[n++] = lf + 1;
      lf = text.indexOf("\n", lf + 1);
    }
  }
  return n;
}

/** The first index in [lo, hi) whose value is greater than `x` (hi when none). */
function upper(values: Uint32Array, x: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((values[mid] as number) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Every line's start in `model`, at once. */
export function lineStartsOf(text: string, model: LineModel): Uint32Array {
  return new LineStarts(text, model).all();
}
