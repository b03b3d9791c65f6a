/**
 * Server ranges → client ranges and locations (SPEC §4.3, §5). One context per request: it
 * keeps one line table per file, so every range of one result is converted against the same
 * text, and one target per URI (a reference list names the same files many times).
 * `convert` runs a conversion with the tables that cost no read; when one would, the caller
 * loads every file the run asked for in one go (SPEC §5.1: within the call's byte budget)
 * and it runs again. A file past the budget keeps the server's positions; `unconverted`
 * names it.
 */

import type { ColumnUnit } from "../config/types.ts";
import { asciiRangeToClient, type ClientRange } from "../text/ascii-columns.ts";
import {
  AsciiLines,
  columnsToClient,
  type FileLines,
  type LineColumns,
} from "../text/line-columns.ts";
import { LineIndex } from "../text/line-index.ts";
import { type LineModel, LSP_LINES } from "../text/line-model.ts";
import { type LspRange, type PositionEncoding, unitToEncoding } from "../text/positions.ts";
import { displayPath } from "../workspace/paths.ts";
import { type UriName, UriNames } from "../workspace/uri-names.ts";
import { compareStrings } from "./order.ts";
import type { Loc, NormalizeContext, Range, Target } from "./types.ts";

export interface NormalizeContextOptions {
  /** the workspace root as configured, and its realpath (results name files relative to it) */
  root: string;
  rootReal: string;
  encoding: PositionEncoding;
  unit: ColumnUnit;
  /** where the server breaks lines (SPEC §5; default LSP's) */
  model?: LineModel;
  /** the call's line tables (workspace/call-lines.ts CallLines) */
  tables: CallTables;
  /** what URIs name under the root, kept across calls (default: this context's own) */
  names?: Pick<UriNames, "of" | "byFile" | "nextRun">;
}

/** A call's line tables of the files its answer names. */
export interface CallTables {
  /** a file's lines for this call (line-columns.ts FileLines), read if need be */
  get(abs: string): FileLines;
  /** … without a read: "pending" when it would take one (default: `get`) */
  peek?(abs: string): FileLines | "pending";
  /** load the tables of these files, in the call's order (default: nothing to load) */
  load?(paths: string[]): Promise<void>;
  /** whether the call's tables found the file at `abs` (a regular file beneath the root) */
  present?(abs: string): boolean;
}

/** A server number made safe: non-numbers and negatives become 0 (servers are untrusted, SPEC §8). */
function safe(n: unknown): number {
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? Math.trunc(n) : 0;
}

export function makeNormalizeContext(opts: NormalizeContextOptions): NormalizeContext {
  // one name per URI (its table looked up once a run), one line table per path in a result
  const names = opts.names ?? new UriNames(opts);
  const tables = opts.tables;
  /** the paths this run asked tables of (a path two URIs name, twice) */
  let asked: string[] = [];
  /** this run's tables, at each name's slot: the names are shared, the tables the call's */
  let slots: (LineColumns | null)[] = [];
  /** files whose positions stayed the server's: the call's budget was spent before them */
  let unconverted = new Set<string>();
  /** inside convert's first run: tables that cost a read are asked for, not read */
  let peeking = false;
  let pending = false;
  /** the conversion run: each starts with no table known */
  let run = names.nextRun();

  function indexOf(name: UriName): FileLines | null {
    if (name.path === null) return null;
    asked.push(name.path);
    const got = peeking && tables.peek ? tables.peek(name.path) : tables.get(name.path);
    if (got === "pending") pending = true;
    return got === "pending" ? null : (got ?? null);
  }

  const sameUnit = unitToEncoding(opts.unit) === opts.encoding;
  // the server counts in the client's unit and lines: only the base changes, no text is read
  const asIs = sameUnit && (opts.model ?? LSP_LINES).differs === null;

  /**
   * The table a file's positions are converted with, or null: without the text (a non-file
   * URI, a file that cannot be read or past the budget) the position is the server's, + 1 —
   * off where its unit or its lines are not the client's (SPEC §5.1) — and so it is when
   * the server counts in the client's unit and lines.
   */
  function tableOf(name: UriName): LineColumns | null {
    if (asIs) return null;
    const index = indexOf(name);
    if (index === "budget" && name.path !== null) unconverted.add(displayPath(opts, name.path));
    if (index === null || index === undefined || index === "budget" || (sameUnit && same(index))) {
      return null;
    }
    return index;
  }

  function toClient(
    table: LineColumns | null,
    line: number,
    character: number,
  ): { line: number; column: number } {
    if (table === null) return { line: line + 1, column: character + 1 };
    return columnsToClient(table, { line, character }, opts.encoding, opts.unit);
  }

  /** `range` of a file `name` names, in the client's terms, written into `out`. */
  function rangeInto(name: UriName, range: LspRange, out: ClientRange): void {
    // spellings of one path share a table: the stamps are their canon's
    const canon = name.canon ?? name;
    let table: LineColumns | null;
    if (canon.run === run) table = slots[canon.slot] ?? null;
    else {
      table = tableOf(name);
      canon.run = run;
      canon.slot = slots.push(table) - 1;
    }
    const start0 = range?.start;
    const end0 = range?.end;
    // a non-negative integer (nearly every server number) is safe as it is: no call
    const l = start0?.line;
    const line0 = typeof l === "number" && l >>> 0 === l ? l : safe(l);
    const c = start0?.character;
    const character = typeof c === "number" && c >>> 0 === c ? c : safe(c);
    const el = end0?.line;
    const endLine0 = typeof el === "number" && el >>> 0 === el ? el : safe(el);
    const ec = end0?.character;
    const endCharacter = typeof ec === "number" && ec >>> 0 === ec ? ec : safe(ec);
    // ASCII text (most files): its columns without the position objects
    if (table instanceof AsciiLines) {
      asciiRangeToClient(table, line0, character, endLine0, endCharacter, out);
      return;
    }
    const start = toClient(table, line0, character);
    let end = toClient(table, endLine0, endCharacter);
    // a server range that ends before it starts is collapsed to its start
    if (end.line < start.line || (end.line === start.line && end.column < start.column)) {
      end = start;
    }
    out.line = start.line;
    out.column = start.column;
    out.end_line = end.line;
    out.end_column = end.column;
  }

  /** where rangeInto writes: read at once by the caller, so one serves every location */
  const at: ClientRange = { line: 0, column: 0, end_line: 0, end_column: 0 };

  function toRange(uri: string, range: LspRange): Range {
    rangeInto(names.of(uri), range, at);
    const { line, column, end_line, end_column } = at;
    return { line, column, end_line, end_column };
  }

  function toTarget(uri: string): Target {
    const target = names.of(uri).target;
    // a fresh object per location: results are built from it
    return "file" in target ? { file: target.file } : { uri: target.uri };
  }

  /** The target's key first, then the range's: one object, built once (a list's hot path). */
  function toLoc(uri: string, range: LspRange): Loc {
    const name = names.of(uri);
    rangeInto(name, range, at);
    const { line, column, end_line, end_column } = at;
    const t = name.target;
    return "file" in t
      ? { file: t.file, line, column, end_line, end_column }
      : { uri: t.uri, line, column, end_line, end_column };
  }

  async function convert<T>(conversion: () => T | Promise<T>): Promise<T> {
    if (asIs) return await conversion();
    asked = [];
    slots = [];
    unconverted = new Set();
    run = names.nextRun();
    peeking = true;
    pending = false;
    let first: T;
    try {
      // a run may yield (time slices): the context is the call's own, nothing else peeks
      first = await conversion();
    } finally {
      peeking = false;
      run = names.nextRun();
      slots = [];
    }
    if (!pending) return first;
    // every file this answer names, asked for by the first run: loaded, then converted again
    await tables.load?.(asked);
    asked = [];
    unconverted = new Set();
    return await conversion();
  }

  const roots = [...new Set([opts.rootReal, opts.root])].sort((a, b) => b.length - a.length);
  return {
    toLoc,
    toRange,
    toTarget,
    roots,
    convert,
    unconverted: () => [...unconverted].sort(compareStrings),
    found: (file) => {
      const path = names.byFile(file)?.path;
      return path !== undefined && path !== null && tables.present?.(path) === true;
    },
  };
}

/** Does the server count this text's lines as the client does (an ASCII table's always)? */
function same(index: Exclude<FileLines, "budget" | undefined>): boolean {
  return !(index instanceof LineIndex) || index.sameAnswerLines;
}

/** Shape check for server output: a range object with start and end positions. */
export function isLspRange(x: unknown): x is LspRange {
  if (typeof x !== "object" || x === null) return false;
  const r = x as { start?: unknown; end?: unknown };
  return (
    typeof r.start === "object" && r.start !== null && typeof r.end === "object" && r.end !== null
  );
}
