/**
 * Pure edit-set validation for the applier (SPEC §7.4). Language-server output
 * is untrusted (SPEC §8): every range is checked against the file's current
 * text and the whole set is rejected before anything is written.
 *
 * Edits apply to the text exactly as read: CRLF stays CRLF, nothing is
 * normalized; the server's newText carries whatever line endings it carries.
 * Ranges resolve in the server's lines (SPEC §5: its `line_terminators`).
 */

import { BridgeError } from "../errors.ts";
import { LineIndex } from "../text/line-index.ts";
import { type LineModel, LSP_LINES } from "../text/line-model.ts";
import {
  type LspPosition,
  type LspRange,
  lspPositionToOffset,
  measure,
  type PositionEncoding,
} from "../text/positions.ts";
import { occurrences, wordSpan } from "./complete.ts";

export interface FileSnapshot {
  abs: string;
  text: string;
  sha256: string;
}

/** One replaced range of a file's bytes and what is written in its place. */
export interface BytePiece {
  start: number;
  end: number;
  bytes: Uint8Array;
}

/**
 * One file's edits as the writer uses them: byte ranges of the old content and their new
 * bytes, so that no text of the file is kept once it is planned (SPEC §7.4: an apply's
 * memory does not grow with the files it touches).
 */
export interface PlannedWrite {
  abs: string;
  /** hash of the content the edits were computed against; the writer re-checks it */
  oldSha256: string;
  /** ascending, not overlapping */
  pieces: BytePiece[];
  /** whether the new content differs from the old (an unchanged file is not rewritten) */
  changed: boolean;
  editCount: number;
}

export interface FileEdits {
  snapshot: FileSnapshot;
  edits: { range: LspRange; newText: string }[];
}

/** An edit resolved to UTF-16 offsets into the snapshot text. */
interface Span {
  start: number;
  end: number;
  newText: string;
  /** position in the file's edit array, for error details */
  index: number;
}

function editInvalid(file: string, index: number | null, reason: string): BridgeError {
  return new BridgeError("EditInvalid", `edit set rejected: ${file}: ${reason}`, {
    hint: "the language server produced an edit that does not fit the current file; request the action or rename again",
    details: { file, index, reason },
  });
}

function isLspPosition(p: unknown): p is LspPosition {
  if (typeof p !== "object" || p === null) return false;
  const { line, character } = p as Record<string, unknown>;
  return isUInteger(line) && isUInteger(character);
}

function isUInteger(n: unknown): n is number {
  return typeof n === "number" && Number.isInteger(n) && n >= 0;
}

function resolveSpan(
  file: string,
  lines: LineIndex,
  edit: { range: LspRange; newText: string },
  index: number,
  enc: PositionEncoding,
): Span {
  const range = (edit as { range?: unknown }).range as { start?: unknown; end?: unknown } | null;
  if (typeof range !== "object" || range === null) {
    throw editInvalid(file, index, "edit has no range");
  }
  if (!isLspPosition(range.start) || !isLspPosition(range.end)) {
    throw editInvalid(file, index, "range positions must be non-negative integers");
  }
  if (typeof edit.newText !== "string") {
    throw editInvalid(file, index, "newText is not a string");
  }
  // A lone surrogate would be silently replaced by U+FFFD when encoded as UTF-8.
  if (!edit.newText.isWellFormed()) {
    throw editInvalid(file, index, "newText is not well-formed Unicode");
  }
  const start = lspPositionToOffset(lines, range.start, enc);
  if (start === undefined) {
    throw editInvalid(file, index, `start ${describe(range.start)} is outside the file (${enc})`);
  }
  const end = lspPositionToOffset(lines, range.end, enc);
  if (end === undefined) {
    throw editInvalid(file, index, `end ${describe(range.end)} is outside the file (${enc})`);
  }
  if (start > end) throw editInvalid(file, index, "range start is after its end");
  return { start, end, newText: edit.newText, index };
}

function describe(p: LspPosition): string {
  return `${p.line}:${p.character}`;
}

/**
 * Order the spans and reject overlaps. Touching spans are fine; so is an insert
 * at the start or end of a replaced range (sorting puts the insert first at a
 * shared start, which is deterministic). Two inserts at one point are rejected:
 * their relative order would depend on array order, which servers do not
 * promise to mean anything.
 */
function orderedWithoutOverlap(file: string, spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || a.end - b.end || a.index - b.index);
  for (let k = 1; k < sorted.length; k++) {
    const prev = sorted[k - 1]!;
    const cur = sorted[k]!;
    const later = Math.max(prev.index, cur.index);
    const earlier = Math.min(prev.index, cur.index);
    if (cur.start < prev.end) {
      throw editInvalid(file, later, `overlaps edit ${earlier}`);
    }
    if (prev.start === prev.end && cur.start === cur.end && cur.start === prev.start) {
      throw editInvalid(file, later, `inserts at the same position as edit ${earlier}`);
    }
  }
  return sorted;
}

function applySpans(text: string, sorted: Span[]): string {
  const parts: string[] = [];
  let cursor = 0;
  for (const span of sorted) {
    parts.push(text.slice(cursor, span.start), span.newText);
    cursor = span.end;
  }
  parts.push(text.slice(cursor));
  return parts.join("");
}

/** A file named twice in one edit set is refused before any file is planned. */
export function refuseRepeated(paths: readonly string[]): void {
  const seen = new Set<string>();
  for (const abs of paths) {
    if (seen.has(abs)) {
      throw editInvalid(abs, null, "the file appears more than once in the edit set");
    }
    seen.add(abs);
  }
}

/**
 * Validate one file's edits against its snapshot and turn them into byte pieces. Throws
 * `EditInvalid` with details `{file, index, reason}` (`index` is the edit's position in the
 * file's array). Positions are in `enc` and in the lines of `lines`, the server's model
 * (LSP's by default).
 */
export function planWrite(
  snapshot: FileSnapshot,
  edits: { range: LspRange; newText: string }[],
  enc: PositionEncoding,
  lines: LineModel = LSP_LINES,
): PlannedWrite {
  const { abs, text } = snapshot;
  const index = new LineIndex(text, lines);
  const spans = edits.map((edit, i) => resolveSpan(abs, index, edit, i, enc));
  const sorted = orderedWithoutOverlap(abs, spans);
  const pieces: BytePiece[] = [];
  let changed = false;
  // UTF-16 offsets to UTF-8 byte offsets, measuring only the text between edits once
  let offset = 0;
  let at = 0;
  for (const span of sorted) {
    const start = at + Buffer.byteLength(text.slice(offset, span.start));
    const replaced = text.slice(span.start, span.end);
    const end = start + Buffer.byteLength(replaced);
    if (replaced !== span.newText) changed = true;
    pieces.push({ start, end, bytes: Buffer.from(span.newText, "utf8") });
    offset = span.end;
    at = end;
  }
  return { abs, oldSha256: snapshot.sha256, pieces, changed, editCount: edits.length };
}

/**
 * Validate every file's edits against its snapshot (planWrite). All files are checked
 * before any result is returned, so a caller that writes only after this returns never
 * writes part of a bad edit set.
 */
export function planWrites(
  files: FileEdits[],
  enc: PositionEncoding,
  lines: LineModel = LSP_LINES,
): PlannedWrite[] {
  refuseRepeated(files.map((f) => f.snapshot.abs));
  return files.map(({ snapshot, edits }) => planWrite(snapshot, edits, enc, lines));
}

/** The new content as the parts to write: old bytes between the pieces, new bytes in them. */
export function writtenParts(old: Uint8Array, pieces: readonly BytePiece[]): Uint8Array[] {
  const parts: Uint8Array[] = [];
  let cursor = 0;
  for (const piece of pieces) {
    if (piece.start > cursor) parts.push(old.subarray(cursor, piece.start));
    if (piece.bytes.length > 0) parts.push(piece.bytes);
    cursor = piece.end;
  }
  if (cursor < old.length) parts.push(old.subarray(cursor));
  return parts;
}

/**
 * A rename's edits checked against the text they replace (SPEC §7.3): each edit, widened to
 * the whole words it touches (edits within one word taken together), must replace exactly
 * the renamed name `oldName`, and what it writes there must hold `newName` as a whole word —
 * a server may rename by a minimal difference (`total_area` → `total_area as sum_area` by
 * one insertion). An edit that lands anywhere else — a server counting lines or columns
 * differently from the bridge, a stale copy of the file — would write the new name into the
 * wrong text; the whole rename is refused instead (`EditInvalid` naming the file, the
 * 1-based line and column in code points, and the text found there).
 */
export function checkRenameEdits(
  file: string,
  text: string,
  edits: { range: LspRange; newText: string }[],
  enc: PositionEncoding,
  /** the server's lines for the positions it reads and its renames' edits (SPEC §5) */
  model: LineModel,
  oldName: string,
  newName: string,
): void {
  const lines = new LineIndex(text, model);
  const spans = orderedWithoutOverlap(
    file,
    edits.map((edit, i) => resolveSpan(file, lines, edit, i, enc)),
  );
  for (const site of sitesOf(text, spans)) {
    const replaced = text.slice(site.start, site.end);
    const written = applySpans(
      replaced,
      site.spans.map((sp) => shifted(sp, site.start)),
    );
    if (replaced === oldName && occurrences(written, newName, 1).length > 0) continue;
    const first = site.spans[0] as Span;
    const line = lines.lineOf(site.start);
    const column = measure(text.slice(lines.lineStart(line), site.start), "utf-32") + 1;
    const shown = replaced.length > 64 ? `${replaced.slice(0, 64)}…` : replaced;
    throw new BridgeError(
      "EditInvalid",
      `edit set rejected: ${file}:${line + 1}:${column}: the rename replaces ${JSON.stringify(shown)} there, not the renamed name ${JSON.stringify(oldName)}`,
      {
        hint: "nothing was written; the server's positions do not match the file's text (its line model or a stale copy); rename again, or check the server's `line_terminators`",
        details: {
          file,
          index: first.index,
          line: line + 1,
          column,
          replaced: shown,
          expected: oldName,
        },
      },
    );
  }
}

/** The edits grouped by the words they touch: each group is one renamed site. */
function sitesOf(text: string, sorted: Span[]): { start: number; end: number; spans: Span[] }[] {
  const sites: { start: number; end: number; spans: Span[] }[] = [];
  for (const span of sorted) {
    const w = wordSpan(text, span.start, span.end);
    const last = sites.at(-1);
    if (last !== undefined && w.start <= last.end) {
      last.end = Math.max(last.end, w.end);
      last.spans.push(span);
    } else {
      sites.push({ start: w.start, end: w.end, spans: [span] });
    }
  }
  return sites;
}

function shifted(span: Span, by: number): Span {
  return { ...span, start: span.start - by, end: span.end - by };
}
