/**
 * Server ranges → client ranges and locations (SPEC §4.3, §5). One context per request: it
 * keeps one line table per file, so every range of one result is converted against the same
 * text, and one target per URI (a reference list names the same files many times).
 */

import type { ColumnUnit } from "../config/types.ts";
import { AsciiLines, columnsToClient, type LineColumns } from "../lsp/line-columns.ts";
import {
  type LspPosition,
  type LspRange,
  type PositionEncoding,
  unitToEncoding,
} from "../lsp/positions.ts";
import { relativeInside, workspaceRootReal } from "../workspace/files.ts";
import { uriToPath } from "../workspace/uri.ts";
import type { Loc, NormalizeContext, Range, Target } from "./types.ts";

export interface NormalizeContextOptions {
  root: string;
  encoding: PositionEncoding;
  unit: ColumnUnit;
  /** line table of an absolute path's current text, or undefined when it cannot be read */
  lines: (abs: string) => LineColumns | undefined;
}

/** A server number made safe: non-numbers and negatives become 0 (servers are untrusted, SPEC §8). */
function safe(n: unknown): number {
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? Math.trunc(n) : 0;
}

/**
 * What a URI names under a root: a pure function of the two, kept across calls. `pathId`
 * numbers the path (never reused, also after the names are forgotten): a result's line
 * tables are kept by it, because a map keyed by a number costs a fraction of one keyed by
 * the path in the interpreter this code runs in (docs/TOOLCHAIN.md#the-jit-policy) —
 * 601 first lookups ~55 µs against 110–430 µs. (A result converted while the names are
 * forgotten may meet one path under two numbers and read its table twice: each of its
 * ranges is still converted against the file's text as read for it.)
 */
interface UriName {
  path: string | null;
  pathId: number;
  target: Target;
}

/** A root's names: by URI, and the number of each path named. */
interface Names {
  byUri: Map<string, UriName>;
  pathIds: Map<string, number>;
}

/** Distinct URIs remembered in all (~1 MB at most); beyond, all are forgotten at once. */
const MAX_NAMES = 4096;
const namesByRoot = new Map<string, Names>();
let namesHeld = 0;
let lastPathId = 0;

function remember(names: Names, uri: string, name: UriName): void {
  if (namesHeld >= MAX_NAMES) {
    for (const m of namesByRoot.values()) {
      m.byUri.clear();
      m.pathIds.clear();
    }
    namesHeld = 0;
  }
  names.byUri.set(uri, name);
  namesHeld += 1;
}

/**
 * The names of a root's URIs. A workspace's results name the same files call after call,
 * and parsing each URI and placing it under the root was most of a location's lookup.
 */
function namesOf(rootReal: string, rootLexical: string): Names {
  const key = `${rootReal}\0${rootLexical}`;
  let names = namesByRoot.get(key);
  if (names === undefined) {
    names = { byUri: new Map(), pathIds: new Map() };
    namesByRoot.set(key, names);
  }
  return names;
}

function nameOf(names: Names, rootReal: string, rootLexical: string, uri: string): UriName {
  const path = uriToPath(uri);
  if (path === null) return { path, pathId: 0, target: { uri } };
  let pathId = names.pathIds.get(path);
  if (pathId === undefined) {
    pathId = ++lastPathId;
    names.pathIds.set(path, pathId);
  }
  const rel = relativeInside(rootReal, path) ?? relativeInside(rootLexical, path);
  return { path, pathId, target: { file: rel ?? path } };
}

export function makeNormalizeContext(opts: NormalizeContextOptions): NormalizeContext {
  const rootReal = workspaceRootReal(opts.root);
  const rootLexical = opts.root;
  const names = namesOf(rootReal, rootLexical);
  // tables by path number, so that two spellings of one file convert against the same text
  const indexes = new Map<number, LineColumns | null>();

  function nameFor(uri: string): UriName {
    let name = names.byUri.get(uri);
    if (name === undefined) {
      name = nameOf(names, rootReal, rootLexical, uri);
      remember(names, uri, name);
    }
    return name;
  }

  function indexOf(name: UriName): LineColumns | null {
    if (name.path === null) return null;
    let index = indexes.get(name.pathId);
    if (index === undefined) {
      index = opts.lines(name.path) ?? null;
      indexes.set(name.pathId, index);
    }
    return index;
  }

  const sameUnit = unitToEncoding(opts.unit) === opts.encoding;

  function toClient(index: LineColumns | null, pos: LspPosition): { line: number; column: number } {
    if (index !== null) return columnsToClient(index, pos, opts.encoding, opts.unit);
    // The only approximation: without the text (a non-file URI, or a file that cannot be
    // read) the column is the server's character + 1. That is exact when the server
    // encoding equals the column unit, and may be off for non-ASCII text otherwise.
    return { line: pos.line + 1, column: pos.character + 1 };
  }

  /** rangeOf's result: one object per context, read at once (a result converts hundreds) */
  const converted: Range = { line: 0, column: 0, end_line: 0, end_column: 0 };

  /** The client range of `range` into `converted`. */
  function rangeOf(name: UriName, range: LspRange): Range {
    const from = range?.start;
    const to = range?.end;
    // a non-negative integer below 2^32 is its own safe value: no call for what servers send
    let line = from?.line;
    if (line >>> 0 !== line) line = safe(line);
    let column = from?.character;
    if (column >>> 0 !== column) column = safe(column);
    let endLine = to?.line;
    if (endLine >>> 0 !== endLine) endLine = safe(endLine);
    let endColumn = to?.character;
    if (endColumn >>> 0 !== endColumn) endColumn = safe(endColumn);
    // When the server already counts in the client's unit, columns need no text: only
    // the base changes (0-based → 1-based). This skips reading every target file.
    if (sameUnit) {
      line += 1;
      column += 1;
      endLine += 1;
      endColumn += 1;
    } else {
      const index = indexOf(name);
      // an ASCII file's line lengths: the text-free table's, or an open document's index's
      const lengths = index instanceof AsciiLines ? index.lengths : index?.asciiLineLengths();
      if (lengths !== undefined) {
        // asciiToClient's rules (ascii-columns.ts) written out on the lengths: no call or
        // object per position (601 locations: toLoc 215–223 → 188–191 µs in a loop)
        const last = lengths.length - 1;
        const lastEnd = (lengths[last] as number) + 1;
        column = line > last ? lastEnd : Math.min(column, lengths[line] as number) + 1;
        line = line > last ? last + 1 : line + 1;
        endColumn = endLine > last ? lastEnd : Math.min(endColumn, lengths[endLine] as number) + 1;
        endLine = endLine > last ? last + 1 : endLine + 1;
      } else {
        const start = toClient(index, { line, character: column });
        const end = toClient(index, { line: endLine, character: endColumn });
        ({ line, column } = start);
        ({ line: endLine, column: endColumn } = end);
      }
    }
    // A server range that ends before it starts is collapsed to its start.
    if (endLine < line || (endLine === line && endColumn < column)) {
      endLine = line;
      endColumn = column;
    }
    converted.line = line;
    converted.column = column;
    converted.end_line = endLine;
    converted.end_column = endColumn;
    return converted;
  }

  function toRange(uri: string, range: LspRange): Range {
    const r = rangeOf(nameFor(uri), range);
    return { line: r.line, column: r.column, end_line: r.end_line, end_column: r.end_column };
  }

  function toTarget(uri: string): Target {
    const target = nameFor(uri).target;
    // a fresh object per location: results are built from it
    return "file" in target ? { file: target.file } : { uri: target.uri };
  }

  function toLoc(uri: string, range: LspRange): Loc {
    const name = nameFor(uri);
    const target = name.target;
    const r = rangeOf(name, range);
    // built directly (keys in the order of types.ts), not by spreading: a result has hundreds
    return "file" in target
      ? {
          file: target.file,
          line: r.line,
          column: r.column,
          end_line: r.end_line,
          end_column: r.end_column,
        }
      : {
          uri: target.uri,
          line: r.line,
          column: r.column,
          end_line: r.end_line,
          end_column: r.end_column,
        };
  }

  return { toLoc, toRange, toTarget };
}

/** Shape check for server output: a range object with start and end positions. */
export function isLspRange(x: unknown): x is LspRange {
  if (typeof x !== "object" || x === null) return false;
  const r = x as { start?: unknown; end?: unknown };
  return (
    typeof r.start === "object" && r.start !== null && typeof r.end === "object" && r.end !== null
  );
}
