/**
 * Whether an edit set is complete for the workspace as it is (SPEC §7.3), pure: which
 * files changed since the server loaded them (its open copy differs from the disk), where
 * a renamed name still occurs outside the edit, whether the server's own definition of such
 * an occurrence lands on the renamed symbol, and the decision for a code action's handle.
 * The effects (opening files, asking the server) are the tools' (mcp/tools/rename-proof.ts,
 * mcp/tools/vouch.ts); the refusal is `EditIncomplete` with the files named, built in
 * incomplete-errors.ts.
 */
import type { BridgeError } from "../errors.ts";
import type { LspPosition, LspRange } from "../text/positions.ts";
import { incompleteError } from "./incomplete-errors.ts";

/** Characters that continue a name (as the `symbol` anchor counts them, SPEC §4.2). */
const WORD = /[\p{L}\p{N}\p{M}_$]/u;
/** Names longer than this are not searched for (no identifier is). */
const MAX_NAME = 256;
/** Occurrences of the names looked at per file, at most. */
export const MAX_OCCURRENCES_PER_FILE = 10_000;

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** Whether the code point starting at UTF-16 index `i` continues a name. */
function wordAfter(s: string, i: number): boolean {
  if (i < 0 || i >= s.length) return false;
  return WORD.test(String.fromCodePoint(s.codePointAt(i) as number));
}

/** Whether the code point ending just before UTF-16 index `i` continues a name. */
function wordBefore(s: string, i: number): boolean {
  if (i <= 0 || i > s.length) return false;
  return wordAfter(s, i >= 2 && isLow(s.charCodeAt(i - 1)) ? i - 2 : i - 1);
}

/** The span [start, end) widened to the whole words it touches on either side. */
export function wordSpan(text: string, start: number, end: number): { start: number; end: number } {
  let s = start;
  let e = end;
  while (wordBefore(text, s)) s -= isLow(text.charCodeAt(s - 1)) ? 2 : 1;
  while (wordAfter(text, e)) e += (text.codePointAt(e) as number) > 0xffff ? 2 : 1;
  return { start: s, end: e };
}

/** The whole word around UTF-16 offset `at` (or ending there), or undefined when there is none. */
export function wordAt(text: string, at: number): string | undefined {
  let start = Math.min(Math.max(0, at), text.length);
  if (start > 0 && isLow(text.charCodeAt(start))) start--;
  let end = start;
  while (wordBefore(text, start)) start -= isLow(text.charCodeAt(start - 1)) ? 2 : 1;
  while (wordAfter(text, end)) end += (text.codePointAt(end) as number) > 0xffff ? 2 : 1;
  const word = text.slice(start, end);
  return word === "" || word.length > MAX_NAME ? undefined : word;
}

/**
 * UTF-16 offsets of `name`'s whole-word occurrences in `text`: the characters before and
 * after are no word characters where the name itself begins or ends with one.
 */
export function occurrences(text: string, name: string, max = MAX_OCCURRENCES_PER_FILE): number[] {
  const out: number[] = [];
  if (name === "" || name.length > MAX_NAME) return out;
  const checkBefore = wordAfter(name, 0);
  const checkAfter = wordBefore(name, name.length);
  for (let at = text.indexOf(name); at >= 0 && out.length < max; ) {
    const end = at + name.length;
    const whole = !(checkBefore && wordBefore(text, at)) && !(checkAfter && wordAfter(text, end));
    if (whole) out.push(at);
    at = text.indexOf(name, whole ? end : at + 1);
  }
  return out;
}

export function mentions(text: string, names: readonly string[]): boolean {
  return names.some((n) => occurrences(text, n, 1).length > 0);
}

/** The server's copy of a file (its open document's hash) against the disk's, now. */
export interface FileCopies {
  abs: string;
  /** SHA-256 of the server's open document; undefined when it is not open */
  server: string | undefined;
  /** SHA-256 of the file on disk now; undefined when it no longer exists or cannot be read */
  disk: string | undefined;
}

/**
 * Files the server has not loaded as they are: not open, or open with other content than the
 * disk. A file gone from the disk holds nothing to edit, so it needs no vouching.
 */
export function notLoaded(files: readonly FileCopies[]): string[] {
  return files.filter((f) => f.disk !== undefined && f.server !== f.disk).map((f) => f.abs);
}

function before(a: LspPosition, b: LspPosition): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

/** Whether two ranges share a character, or an empty one sits at the other's start. */
export function overlaps(a: LspRange, b: LspRange): boolean {
  if (!before(a.start, b.end) || !before(b.start, a.end)) {
    const same = (p: LspPosition, q: LspPosition) =>
      p.line === q.line && p.character === q.character;
    return same(a.start, b.start);
  }
  return true;
}

/** The occurrences that no edit of the file touches. */
export function uncovered(found: readonly LspRange[], edits: readonly LspRange[]): LspRange[] {
  return found.filter((o) => !edits.some((e) => overlaps(o, e)));
}

/** A definition answer's targets, whatever its shape (Location, Location[], LocationLink[]). */
export function definitionTargets(result: unknown): { uri: string; range: LspRange }[] {
  const list = Array.isArray(result) ? result : result ? [result] : [];
  const out: { uri: string; range: LspRange }[] = [];
  for (const item of list) {
    if (typeof item !== "object" || item === null) continue;
    const l = item as Record<string, unknown>;
    const uri = l.targetUri ?? l.uri;
    const range = l.targetSelectionRange ?? l.range ?? l.targetRange;
    if (typeof uri === "string" && isRange(range)) out.push({ uri, range });
  }
  return out;
}

function isPosition(p: unknown): p is LspPosition {
  const o = p as LspPosition | null;
  return (
    typeof o === "object" && o !== null && Number.isInteger(o.line) && Number.isInteger(o.character)
  );
}

function isRange(r: unknown): r is LspRange {
  const o = r as LspRange | null;
  return typeof o === "object" && o !== null && isPosition(o.start) && isPosition(o.end);
}

/**
 * Whether an occurrence is the renamed symbol by the server's own account: its definition
 * lands on a range the rename edits (a declaration or definition of the symbol).
 */
export function landsOnEdit(
  targets: readonly { abs: string | null; range: LspRange }[],
  edited: ReadonlyMap<string, readonly LspRange[]>,
): boolean {
  return targets.some(
    (t) => t.abs !== null && (edited.get(t.abs) ?? []).some((e) => overlaps(t.range, e)),
  );
}

/** What a code action's handle knew when it was listed, and what changed since (SPEC §7.3). */
export interface ActionVouching {
  /** why the record of changes was not whole at listing, or null */
  untrackedAtListing: string | null;
  /** changed files that were not open with their disk content when the edit was computed */
  unloadedAtListing: readonly string[];
  /** why the record of changes is not whole now, or null */
  untrackedNow: string | null;
  /** files changed since the listing */
  changedSince: readonly string[];
  /** the edit's targets (their changes are drift, judged by the gate) */
  targets: readonly string[];
}

/** The refusal for a code action's edit, or undefined when it is vouched for. */
export function judgeAction(v: ActionVouching): BridgeError | undefined {
  const untracked = v.untrackedAtListing ?? v.untrackedNow;
  if (untracked !== null) return incompleteError("untracked", [], { detail: untracked });
  if (v.unloadedAtListing.length > 0) return incompleteError("not_loaded", v.unloadedAtListing);
  const targets = new Set(v.targets);
  const changed = v.changedSince.filter((f) => !targets.has(f));
  if (changed.length > 0) return incompleteError("changed_since_listing", changed);
  return undefined;
}
