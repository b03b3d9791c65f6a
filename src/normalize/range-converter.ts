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

export function makeNormalizeContext(opts: NormalizeContextOptions): NormalizeContext {
  const rootReal = workspaceRootReal(opts.root);
  const rootLexical = opts.root;
  const indexes = new Map<string, LineColumns | null>();
  const paths = new Map<string, string | null>();
  const targets = new Map<string, Target>();

  function indexFor(path: string): LineColumns | null {
    let index = indexes.get(path);
    if (index === undefined) {
      index = opts.lines(path) ?? null;
      indexes.set(path, index);
    }
    return index;
  }

  function pathOf(uri: string): string | null {
    let path = paths.get(uri);
    if (path === undefined) {
      path = uriToPath(uri);
      paths.set(uri, path);
    }
    return path;
  }

  const sameUnit = unitToEncoding(opts.unit) === opts.encoding;

  function toClient(path: string | null, pos: LspPosition): { line: number; column: number } {
    const index = path === null ? null : indexFor(path);
    if (index !== null) return columnsToClient(index, pos, opts.encoding, opts.unit);
    // The only approximation: without the text (a non-file URI, or a file that cannot be
    // read) the column is the server's character + 1. That is exact when the server
    // encoding equals the column unit, and may be off for non-ASCII text otherwise.
    return { line: pos.line + 1, column: pos.character + 1 };
  }

  function toRange(uri: string, range: LspRange): Range {
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
      const path = pathOf(uri);
      const start = toClient(path, { line, character: column });
      const end = toClient(path, { line: endLine, character: endColumn });
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

  function targetOfUri(uri: string): Target {
    let target = targets.get(uri);
    if (target === undefined) {
      const path = pathOf(uri);
      if (path === null) target = { uri };
      else {
        const rel = relativeInside(rootReal, path) ?? relativeInside(rootLexical, path);
        target = { file: rel ?? path };
      }
      targets.set(uri, target);
    }
    return target;
  }

  function toTarget(uri: string): Target {
    const target = targetOfUri(uri);
    // a fresh object per location: results are built from it
    return "file" in target ? { file: target.file } : { uri: target.uri };
  }

  function toLoc(uri: string, range: LspRange): Loc {
    const target = targetOfUri(uri);
    const r = toRange(uri, range);
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
