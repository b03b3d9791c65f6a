/** A NormalizeContext over in-memory files, for the unit tests of src/normalize. */

import type { ColumnUnit } from "../../src/config/types.ts";
import { makeNormalizeContext } from "../../src/normalize/range-converter.ts";
import type { NormalizeContext } from "../../src/normalize/types.ts";
import { type LineColumns, lineColumnsOf } from "../../src/text/line-columns.ts";
import type { LspRange, PositionEncoding } from "../../src/text/positions.ts";

/** A root that does not exist on disk, so nothing here touches the file system. */
export const ROOT = "/nonexistent-theodolite-root/ws";

export function fileUri(rel: string): string {
  return rel.startsWith("/") ? `file://${rel}` : `file://${ROOT}/${rel}`;
}

export function fixtureContext(
  files: Record<string, string>,
  opts: {
    encoding?: PositionEncoding;
    unit?: ColumnUnit;
    /** the table a text gets (default: the cache's choice; an open document has a LineIndex) */
    table?: (text: string) => LineColumns;
  } = {},
): { ctx: NormalizeContext; reads: string[] } {
  const reads: string[] = [];
  const ctx = makeNormalizeContext({
    root: ROOT,
    rootReal: ROOT,
    encoding: opts.encoding ?? "utf-16",
    unit: opts.unit ?? "code-point",
    tables: {
      get: (abs) => {
        reads.push(abs);
        const rel = abs.startsWith(`${ROOT}/`) ? abs.slice(ROOT.length + 1) : abs;
        const text = files[rel];
        return text === undefined ? undefined : (opts.table ?? lineColumnsOf)(text);
      },
    },
  });
  return { ctx, reads };
}

/** A range as the bridge answers it: 1-based lines and columns in the client's unit. */
export function range(line: number, column: number, end_line: number, end_column: number) {
  return { line, column, end_line, end_column };
}

/** LSP range from 0-based numbers. */
export function r(line: number, character: number, endLine: number, endChar: number): LspRange {
  return { start: { line, character }, end: { line: endLine, character: endChar } };
}

/** A TextEdit putting `newText` in place of that range. */
export function edit(
  line: number,
  character: number,
  endLine: number,
  endChar: number,
  newText: string,
) {
  return { range: r(line, character, endLine, endChar), newText };
}

/** Deterministic shuffle (reverse + rotate) so order tests do not depend on input order. */
export function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
