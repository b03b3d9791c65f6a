/**
 * Server ranges → client ranges and locations (SPEC §4.3, §5). One context per request: it
 * keeps one line table per file, so every range of one result is converted against the same
 * text, and one target per URI (a reference list names the same files many times).
 */

import type { ColumnUnit } from "../config/types.ts";
import { columnsToClient, type LineColumns } from "../lsp/line-columns.ts";
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

/** What one result needs to know of a URI, looked up once per URI per result. */
interface UriEntry {
  /** the absolute path it names, or null for a non-file URI */
  path: string | null;
  target: Target;
  /** the path's line table; undefined until a range needs it, null when unreadable */
  index: LineColumns | null | undefined;
}

/** What a URI names under a root: a pure function of the two, kept across calls. */
interface UriName {
  path: string | null;
  target: Target;
}

/** Distinct URIs remembered in all (~1 MB at most); beyond, all are forgotten at once. */
const MAX_NAMES = 4096;
const namesByRoot = new Map<string, Map<string, UriName>>();
let namesHeld = 0;

function remember(names: Map<string, UriName>, uri: string, name: UriName): void {
  if (namesHeld >= MAX_NAMES) {
    for (const m of namesByRoot.values()) m.clear();
    namesHeld = 0;
  }
  names.set(uri, name);
  namesHeld += 1;
}

/**
 * The names of a root's URIs. A workspace's results name the same files call after call,
 * and parsing each URI and placing it under the root was most of a location's lookup.
 */
function namesOf(rootReal: string, rootLexical: string): Map<string, UriName> {
  const key = `${rootReal}\0${rootLexical}`;
  let names = namesByRoot.get(key);
  if (names === undefined) {
    names = new Map();
    namesByRoot.set(key, names);
  }
  return names;
}

function nameOf(rootReal: string, rootLexical: string, uri: string): UriName {
  const path = uriToPath(uri);
  if (path === null) return { path, target: { uri } };
  const rel = relativeInside(rootReal, path) ?? relativeInside(rootLexical, path);
  return { path, target: { file: rel ?? path } };
}

export function makeNormalizeContext(opts: NormalizeContextOptions): NormalizeContext {
  const rootReal = workspaceRootReal(opts.root);
  const rootLexical = opts.root;
  const names = namesOf(rootReal, rootLexical);
  // one lookup per location: a reference list names hundreds of files, and the per-URI
  // maps this replaced cost more than the conversion itself (docs/PERFORMANCE.md)
  const entries = new Map<string, UriEntry>();
  // tables by path, so that two spellings of one file convert against the same text
  const indexes = new Map<string, LineColumns | null>();

  function entryOf(uri: string): UriEntry {
    let entry = entries.get(uri);
    if (entry === undefined) {
      let name = names.get(uri);
      if (name === undefined) {
        name = nameOf(rootReal, rootLexical, uri);
        remember(names, uri, name);
      }
      entry = { path: name.path, target: name.target, index: undefined };
      entries.set(uri, entry);
    }
    return entry;
  }

  function indexFor(path: string): LineColumns | null {
    let index = indexes.get(path);
    if (index === undefined) {
      index = opts.lines(path) ?? null;
      indexes.set(path, index);
    }
    return index;
  }

  function indexOf(entry: UriEntry): LineColumns | null {
    if (entry.index === undefined) entry.index = entry.path === null ? null : indexFor(entry.path);
    return entry.index;
  }

  const sameUnit = unitToEncoding(opts.unit) === opts.encoding;

  function toClient(index: LineColumns | null, pos: LspPosition): { line: number; column: number } {
    if (index !== null) return columnsToClient(index, pos, opts.encoding, opts.unit);
    // The only approximation: without the text (a non-file URI, or a file that cannot be
    // read) the column is the server's character + 1. That is exact when the server
    // encoding equals the column unit, and may be off for non-ASCII text otherwise.
    return { line: pos.line + 1, column: pos.character + 1 };
  }

  function rangeOf(entry: UriEntry, range: LspRange): Range {
    const from = range?.start;
    const to = range?.end;
    let line = safe(from?.line);
    let column = safe(from?.character);
    let endLine = safe(to?.line);
    let endColumn = safe(to?.character);
    // When the server already counts in the client's unit, columns need no text: only
    // the base changes (0-based → 1-based). This skips reading every target file.
    if (sameUnit) {
      line += 1;
      column += 1;
      endLine += 1;
      endColumn += 1;
    } else {
      const index = indexOf(entry);
      const start = toClient(index, { line, character: column });
      const end = toClient(index, { line: endLine, character: endColumn });
      ({ line, column } = start);
      ({ line: endLine, column: endColumn } = end);
    }
    // A server range that ends before it starts is collapsed to its start.
    if (endLine < line || (endLine === line && endColumn < column)) {
      endLine = line;
      endColumn = column;
    }
    return { line, column, end_line: endLine, end_column: endColumn };
  }

  function toRange(uri: string, range: LspRange): Range {
    return rangeOf(entryOf(uri), range);
  }

  function toTarget(uri: string): Target {
    const target = entryOf(uri).target;
    // a fresh object per location: results are built from it
    return "file" in target ? { file: target.file } : { uri: target.uri };
  }

  function toLoc(uri: string, range: LspRange): Loc {
    const entry = entryOf(uri);
    const target = entry.target;
    const r = rangeOf(entry, range);
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
