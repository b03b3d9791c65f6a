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
import type { TimeSlices } from "../time-slice.ts";
import { canonicalJson } from "./json.ts";
import { messageForm } from "./message-form.ts";
import type { DiagnosticOut, Range, Target } from "./types.ts";

/**
 * Diagnostics in canonical order, each with the digest of the text under it (DIGEST_BYTES
 * at `DIGEST_BYTES * i`): all its match key is made of (`keyAt`), and what a snapshot
 * keeps — never the keys, which would hold every message twice (SPEC §8.2).
 */
export interface KeyedDiagnostics {
  items: readonly DiagnosticOut[];
  texts: Buffer;
}

/** The bytes of a digest (SHA-256). */
export const DIGEST_BYTES = 32;

/** What changed, as indices: `added` into the later list, `removed` into the earlier one. */
export interface DiagnosticsDiff {
  added: number[];
  removed: number[];
  unchanged: number;
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
 * their messages name — and the rendering, with the covered text as a digest: `digest`, the SHA-256 of
 * `textUnder` in hex (`writeTextDigest`).
 */
export function matchKey(d: DiagnosticOut, digest: string): string {
  return canonicalJson([
    fileOf(d),
    d.severity,
    d.code ?? null,
    d.source ?? null,
    matchedMessage(d.message),
    (d.related ?? []).map((r) => [fileOf(r), matchedMessage(r.message)]),
    digest,
  ]);
}

/** The match key of the `i`th diagnostic of a list. */
export function keyAt(list: KeyedDiagnostics, i: number): string {
  const at = i * DIGEST_BYTES;
  return matchKey(
    list.items[i] as DiagnosticOut,
    list.texts.toString("hex", at, at + DIGEST_BYTES),
  );
}

/** The SHA-256 of the text under a diagnostic, written at `into[at]` (DIGEST_BYTES). */
export function writeTextDigest(text: string, into: Buffer, at: number): void {
  // through hex: a string the collector sees, where a Buffer per digest held memory outside
  // its heap until a full collection
  into.write(hash("sha256", text, "hex"), at, DIGEST_BYTES, "hex");
}

/**
 * A deterministic id of a canonical result, fed one diagnostic at a time: the same files,
 * completeness and diagnostics (with the texts under them) give the same id in any bridge.
 * What it digests is the canonical JSON of {files, complete, diagnostics: [[item, key]…]},
 * never made as one string.
 */
export class SnapshotDigest {
  private readonly hash = createHash("sha256");
  private first = true;

  constructor(files: readonly string[], complete: boolean | undefined) {
    this.hash.update(
      `{"files":${canonicalJson(files)},"complete":${canonicalJson(complete ?? null)}`,
    );
    this.hash.update(',"diagnostics":[');
  }

  /** The next diagnostic: its canonical JSON and its match key. */
  add(itemJson: string, key: string): void {
    this.hash.update(`${this.first ? "" : ","}[${itemJson},${canonicalJson(key)}]`);
    this.first = false;
  }

  id(): string {
    this.hash.update("]}");
    return `d${this.hash.digest("hex").slice(0, 20)}`;
  }
}

/** A match key as a short string, for a map: its digest (a key holds whole messages). */
function keyDigest(list: KeyedDiagnostics, i: number): string {
  return hash("sha256", keyAt(list, i), "base64");
}

/**
 * What changed from `before` to `after`, both in canonical order. Only diagnostics of
 * files `inScope` are compared from `before`. Equal keys pair up in order, so a line
 * inserted above shifts diagnostics without adding or removing any; what is left
 * unpaired in `after` was added, in `before` removed (each with its own positions): of
 * the diagnostics of one key, the first ones pair up, the later ones are left.
 */
export async function diffDiagnostics(
  before: KeyedDiagnostics,
  after: KeyedDiagnostics,
  inScope: (file: string) => boolean,
  slices: TimeSlices,
): Promise<DiagnosticsDiff> {
  // how many of `before` wait under each key
  const waiting = new Map<string, number>();
  const scoped: number[] = [];
  await slices.each(before.items.length, (i) => {
    if (!inScope(fileOf(before.items[i] as DiagnosticOut))) return;
    const key = keyDigest(before, i);
    waiting.set(key, (waiting.get(key) ?? 0) + 1);
    scoped.push(i);
  });
  const added: number[] = [];
  let unchanged = 0;
  await slices.each(after.items.length, (i) => {
    const key = keyDigest(after, i);
    const left = waiting.get(key) ?? 0;
    if (left === 0) added.push(i);
    else {
      waiting.set(key, left - 1);
      unchanged += 1;
    }
  });
  // the last `left` of each key in `before` were not paired: walk back to find them
  const removed: number[] = [];
  await slices.each(scoped.length, (n) => {
    const i = scoped[scoped.length - 1 - n] as number;
    const key = keyDigest(before, i);
    const left = waiting.get(key) ?? 0;
    if (left === 0) return;
    waiting.set(key, left - 1);
    removed.push(i);
  });
  return { added, removed: removed.reverse(), unchanged };
}
