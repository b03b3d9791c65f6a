/**
 * Pure edit-set validation for the applier (SPEC §7.4). Language-server output
 * is untrusted (SPEC §8): every range is checked against the file's current
 * text and the whole set is rejected before anything is written.
 *
 * Edits apply to the text exactly as read: CRLF stays CRLF, nothing is
 * normalized; the server's newText carries whatever line endings it carries (a
 * formatting's are fitted to the file before, format-rule.ts).
 * Ranges resolve in the server's lines for the edit (SPEC §5, text/line-rule.ts): where
 * they may count in either of two models, only where both agree.
 */

import { LineIndex } from "../text/line-index.ts";
import { type LineModel, LSP_LINES, sameLineStarts } from "../text/line-model.ts";
import { PositionReader } from "../text/line-rule.ts";
import {
  type LspPosition,
  type LspRange,
  measure,
  offsetToLspPosition,
  type PositionEncoding,
} from "../text/positions.ts";
import { wordSpan } from "./complete.ts";
import { editInvalid, siteRefused } from "./edit-set-errors.ts";
import { judgeSite } from "./rename-rule.ts";

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

function isLspPosition(p: unknown): p is LspPosition {
  if (typeof p !== "object" || p === null) return false;
  const { line, character } = p as Record<string, unknown>;
  return isUInteger(line) && isUInteger(character);
}

function isUInteger(n: unknown): n is number {
  return typeof n === "number" && Number.isInteger(n) && n >= 0;
}

/** Where `pos` is in the reader's text, or why it is nowhere: an `EditInvalid` reason. */
function offsetOf(
  lines: PositionReader,
  pos: LspPosition,
  enc: PositionEncoding,
  which: "start" | "end",
): number | string {
  const offset = lines.offset(pos, enc);
  if (offset === "ambiguous") {
    const models = lines.indexes.map((i) => `[${i.server.model.key}]`).join(" and ");
    return `${which} ${describe(pos)} is at different places in the server's two line models (${models}), and it may count in either`;
  }
  return offset ?? `${which} ${describe(pos)} is outside the file (${enc})`;
}

function resolveSpan(
  file: string,
  lines: PositionReader,
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
  const start = offsetOf(lines, range.start, enc, "start");
  if (typeof start === "string") throw editInvalid(file, index, start);
  const end = offsetOf(lines, range.end, enc, "end");
  if (typeof end === "string") throw editInvalid(file, index, end);
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

/**
 * The text `edits` make of `text`, validated as planWrite validates them (ranges in the
 * file, in the lines of `lines`, no overlaps; else `EditInvalid`): what a writer would write.
 */
export function editedText(
  file: string,
  text: string,
  edits: readonly { range: LspRange; newText: string }[],
  enc: PositionEncoding,
  lines: readonly LineModel[] = [LSP_LINES],
): string {
  const reader = new PositionReader(text, lines);
  const spans = edits.map((edit, i) => resolveSpan(file, reader, edit, i, enc));
  return applySpans(text, orderedWithoutOverlap(file, spans));
}

/**
 * The edits that change `text`, validated as editedText validates them: an edit that
 * writes what its range holds (an empty insert, a break replaced by the same break) is
 * left out.
 */
export function changingEdits<E extends { range: LspRange; newText: string }>(
  file: string,
  text: string,
  edits: readonly E[],
  enc: PositionEncoding,
  lines: readonly LineModel[] = [LSP_LINES],
): E[] {
  const reader = new PositionReader(text, lines);
  return edits.filter((edit, i) => {
    const span = resolveSpan(file, reader, edit, i, enc);
    return text.slice(span.start, span.end) !== span.newText;
  });
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
  lines: readonly LineModel[] = [LSP_LINES],
): PlannedWrite {
  const { abs, text } = snapshot;
  const index = new PositionReader(text, lines);
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
  lines: readonly LineModel[] = [LSP_LINES],
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
 * the renamed name `oldName`, and write there a rename of it (rename-rule.ts: `newName`, or
 * a form servers write to keep a second name bound, such as rust-analyzer's
 * `total_area as sum_area` by one insertion). An edit that lands anywhere else — a server
 * counting lines or columns differently from the bridge, a stale copy of the file — or
 * writes other text refuses the whole rename (`EditInvalid` naming the file, the 1-based
 * line and column in code points, the text found there and what was written).
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
  const reader = new PositionReader(text, [model]);
  const lines = reader.indexes[0] as LineIndex;
  const spans = orderedWithoutOverlap(
    file,
    edits.map((edit, i) => resolveSpan(file, reader, edit, i, enc)),
  );
  for (const site of sitesOf(text, spans)) {
    const replaced = text.slice(site.start, site.end);
    const written = applySpans(
      replaced,
      site.spans.map((sp) => shifted(sp, site.start)),
    );
    const verdict = judgeSite(replaced, written, oldName, newName);
    if (verdict === "rename") continue;
    const line = lines.lineOf(site.start);
    const column = measure(text.slice(lines.lineStart(line), site.start), "utf-32") + 1;
    const at = { file, index: (site.spans[0] as Span).index, line: line + 1, column };
    throw siteRefused(verdict, at, replaced, written, oldName, newName);
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

/**
 * A file's edits with their ranges counted in the server's read lines `read`, from the
 * models `models` they count in (SPEC §5, text/line-rule.ts): as they are where that is
 * `read` alone or the text's lines start alike in all; `EditInvalid` for a position
 * outside the file or, in two models, at different places in each.
 */
export function inReadLines<E extends { range: LspRange }>(
  file: string,
  text: string,
  edits: E[],
  models: readonly LineModel[],
  read: LineModel,
  enc: PositionEncoding,
): E[] {
  if (models.length === 1 && models[0]?.key === read.key) return edits;
  // most texts: the same lines in every model (one regular-expression pass each)
  if ([read, ...models].every((m) => sameLineStarts(text, m))) return edits;
  const reader = new PositionReader(text, models);
  const target = new LineIndex(text, read);
  return edits.map((edit, i) => {
    const span = resolveSpan(file, reader, { newText: "", ...edit }, i, enc);
    const start = offsetToLspPosition(target, span.start, enc);
    return { ...edit, range: { start, end: offsetToLspPosition(target, span.end, enc) } };
  });
}
