/**
 * Diagnostics compared across a change (SPEC §6.1): each diagnostic is keyed by
 * file, severity, code, source, message and the text under its range — not its
 * line, so lines moving is not a change, and its message by the form two renderings
 * of one problem share (message-form.ts) — and two results are matched key by
 * key, in canonical order. A snapshot id is a digest of the canonical result.
 * Pure: the texts come from the caller.
 */
import { createHash, hash } from "node:crypto";
import type { ColumnUnit } from "../config/types.ts";
import { clientOffsetFloor, type LineIndex } from "../text/positions.ts";
import { canonicalJson } from "./json.ts";
import { messageForm } from "./message-form.ts";
import type { DiagnosticOut, Range, Target } from "./types.ts";

/** A diagnostic with the key it is matched by. */
export interface KeyedDiagnostic {
  item: DiagnosticOut;
  key: string;
}

export interface DiagnosticsDiff {
  added: DiagnosticOut[];
  removed: DiagnosticOut[];
  unchanged: number;
}

/** One-shot: no hash object per diagnostic (a 100,000-diagnostic answer made as many). */
function sha256Hex(text: string): string {
  return hash("sha256", text, "hex");
}

/** The file (or non-file URI) a diagnostic or a note belongs to. */
export function fileOf(d: Target): string {
  return "file" in d ? d.file : d.uri;
}

/** The text a range covers in `index` ("" without a text); tolerant of ranges past the end. */
export function textUnder(index: LineIndex | undefined, r: Range, unit: ColumnUnit): string {
  if (index === undefined) return "";
  const from = clientOffsetFloor(index, r.line, r.column, unit);
  const to = clientOffsetFloor(index, r.end_line, r.end_column, unit);
  return index.text.slice(from, Math.max(from, to));
}

/**
 * A message with the positions it names blanked, for matching only: `path:12:5` (compilers'
 * locations) and the line numbers of rendered source excerpts (rustc's `12 |` gutter, whose
 * width follows the widest number), so a diagnostic whose lines moved is not a different
 * diagnostic (bacon-ls renders both). Runs of white space count as one. Each pattern
 * starts at one fixed character, so a 1 MiB message stays linear (SPEC §8).
 */
export function positionsBlanked(message: string): string {
  return message
    .replace(/(?<=[^\s:]):\d+(?::\d+)?(?=[:\s]|$)/g, ":#")
    .replace(/^([ \t]*)\d+([ \t]+\|)/gm, "$1#$2")
    .replace(/\s+/g, " ");
}

/** A message as matched: its positions blanked, in the form its renderings share. */
export function matchedMessage(message: string): string {
  return messageForm(positionsBlanked(message));
}

/**
 * The match key: everything but the positions — the diagnostic's and its notes', and those
 * their messages name — and the rendering, with the covered text as a digest.
 */
export function matchKey(d: DiagnosticOut, text: string): string {
  return canonicalJson([
    fileOf(d),
    d.severity,
    d.code ?? null,
    d.source ?? null,
    matchedMessage(d.message),
    (d.related ?? []).map((r) => [fileOf(r), matchedMessage(r.message)]),
    sha256Hex(text),
  ]);
}

/**
 * A deterministic id of a canonical result: the same files, completeness and diagnostics
 * (with the texts under them) give the same id in any bridge.
 */
export function snapshotId(
  files: readonly string[],
  complete: boolean | undefined,
  keyed: readonly KeyedDiagnostic[],
): string {
  // the canonical JSON of {files, complete, diagnostics}, hashed piece by piece: a
  // 100,000-diagnostic result is never one string
  const hash = createHash("sha256");
  hash.update(`{"files":${canonicalJson(files)},"complete":${canonicalJson(complete ?? null)}`);
  hash.update(',"diagnostics":[');
  keyed.forEach((k, i) => {
    hash.update(`${i === 0 ? "" : ","}${canonicalJson([k.item, k.key])}`);
  });
  hash.update("]}");
  return `d${hash.digest("hex").slice(0, 20)}`;
}

/**
 * What changed from `before` to `after`, both in canonical order. Only diagnostics of
 * files `inScope` are compared from `before`. Equal keys pair up in order, so a line
 * inserted above shifts diagnostics without adding or removing any; what is left
 * unpaired in `after` was added, in `before` removed (each with its own positions).
 */
export function diffDiagnostics(
  before: readonly KeyedDiagnostic[],
  after: readonly KeyedDiagnostic[],
  inScope: (file: string) => boolean,
): DiagnosticsDiff {
  const waiting = new Map<string, KeyedDiagnostic[]>();
  for (const k of before) {
    if (!inScope(fileOf(k.item))) continue;
    const list = waiting.get(k.key) ?? [];
    list.push(k);
    waiting.set(k.key, list);
  }
  const added: DiagnosticOut[] = [];
  let unchanged = 0;
  for (const k of after) {
    const match = waiting.get(k.key)?.shift();
    if (match === undefined) added.push(k.item);
    else unchanged += 1;
  }
  const left = new Set([...waiting.values()].flat());
  const removed = before.filter((k) => left.has(k)).map((k) => k.item);
  return { added, removed, unchanged };
}
