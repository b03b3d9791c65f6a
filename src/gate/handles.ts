/**
 * Single-use opaque code-action handles (SPEC §7.3). The edit and the target
 * hashes stay here; clients only ever see the handle string.
 *
 * The map is keyed by SHA-256 of the handle, not the handle itself: a dump of
 * the keys does not reveal usable handles, and a lookup compares digests of
 * fixed length, so timing says nothing about how much of a guess was right.
 */

import { createHash } from "node:crypto";
import type { LineModel } from "../text/line-model.ts";
import type { LspRange, PositionEncoding } from "../text/positions.ts";

export interface PlannedFileEdit {
  abs: string;
  edits: { range: LspRange; newText: string }[];
}

export interface HandleEntry {
  sessionKey: string;
  sessionEpoch: number;
  title: string;
  /** the position encoding the server's ranges are in */
  encoding: PositionEncoding;
  /** where the server breaks the lines its ranges count: the models they may count in (SPEC §5) */
  lines: readonly LineModel[];
  files: PlannedFileEdit[];
  /** every target and its SHA-256 at listing time, for the drift check */
  targets: { abs: string; sha256: string }[];
  /** what the listing could vouch for (SPEC §7.3), judged again at apply time */
  vouch: HandleVouch;
}

/** The session's record of changed files as the listing saw it (SPEC §7.3). */
export interface HandleVouch {
  /** the record's mark when the edit was computed: files changed later are newer */
  mark: number;
  /** why the record was not whole, or null */
  untracked: string | null;
  /** changed files the server did not hold open with their disk content */
  unloaded: string[];
}

export type HandleInspection =
  | { state: "valid" | "foreign_session"; entry: HandleEntry }
  | { state: "unknown" | "used"; entry?: undefined };

const HANDLE_PREFIX = "ca_";
const HANDLE_BYTES = 32;
/** "ca_" + 43 base64url characters (32 bytes, unpadded) */
const HANDLE_SHAPE = /^ca_[A-Za-z0-9_-]{43}$/;
const DEFAULT_CAPACITY = 1024;
/**
 * SPEC §8: the characters of edit text and paths live handles hold together. A server
 * names the edits, so they are bounded in size as well as in number: past the budget the
 * oldest handles are forgotten (`unknown`: list the code actions again).
 */
export const HANDLE_BUDGET_CHARS = 64 * 1024 * 1024;
/** What one edit costs beyond its text (its range, the object). */
const EDIT_OVERHEAD_CHARS = 64;

/** A live handle holds its entry; a used one keeps only a tombstone (payload freed). */
interface Slot {
  entry: HandleEntry | undefined;
  used: boolean;
  /** the entry's weight while it is held */
  chars: number;
}

function weight(entry: HandleEntry): number {
  let n = entry.title.length;
  for (const f of entry.files) {
    n += f.abs.length;
    for (const e of f.edits) n += e.newText.length + EDIT_OVERHEAD_CHARS;
  }
  for (const t of entry.targets) n += t.abs.length + t.sha256.length;
  for (const f of entry.vouch.unloaded) n += f.length;
  return n + (entry.vouch.untracked?.length ?? 0);
}

/** The session life a caller acts for: a handle is valid only for the one that issued it. */
export type HandleOwner = { sessionKey: string; sessionEpoch: number } | null;

/** A handle looked up once (one SHA-256): its entry, and its state whenever asked. */
export interface HandleRef {
  /** the stored edit while the handle was live at lookup */
  readonly entry: HandleEntry | undefined;
  /** `inspect` as of now, without hashing the handle again (a handle used since is `used`) */
  inspect(current: HandleOwner): HandleInspection;
}

function classify(slot: Slot | undefined, current: HandleOwner): HandleInspection {
  if (slot === undefined) return { state: "unknown" };
  if (slot.used || slot.entry === undefined) return { state: "used" };
  const entry = slot.entry;
  const sameSession =
    current !== null &&
    current.sessionKey === entry.sessionKey &&
    current.sessionEpoch === entry.sessionEpoch;
  return { state: sameSession ? "valid" : "foreign_session", entry };
}

function digest(handle: string): string {
  return createHash("sha256").update(handle).digest("base64url");
}

export class HandleStore {
  private readonly capacity: number;
  /** insertion-ordered, so the first key is the oldest (eviction order) */
  private readonly slots = new Map<string, Slot>();
  /** the weight of the entries held */
  private held = 0;

  constructor(
    capacity: number = DEFAULT_CAPACITY,
    private readonly budgetChars: number = HANDLE_BUDGET_CHARS,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`handle store capacity must be a positive integer, got ${capacity}`);
    }
    this.capacity = capacity;
  }

  /** Store `entry` and return a fresh unguessable handle for it. */
  issue(entry: HandleEntry): string {
    const bytes = new Uint8Array(HANDLE_BYTES);
    crypto.getRandomValues(bytes);
    const handle = HANDLE_PREFIX + Buffer.from(bytes).toString("base64url");
    // A private copy: later changes to the caller's object must not alter what gets applied.
    const chars = weight(entry);
    const key = digest(handle);
    this.slots.set(key, { entry: structuredClone(entry), used: false, chars });
    this.held += chars;
    // the newest always stays, however heavy (a server message bounds it)
    while (this.slots.size > this.capacity || this.held > this.budgetChars) {
      const oldest = this.slots.keys().next().value;
      if (oldest === undefined || oldest === key) break;
      this.held -= this.slots.get(oldest)?.chars ?? 0;
      this.slots.delete(oldest);
    }
    return handle;
  }

  /**
   * Classify without consuming. `unknown`: never issued, evicted or malformed;
   * `used`: consumed before; `foreign_session`: issued by another session or an
   * earlier epoch of it (or there is no current session); else `valid`.
   */
  inspect(handle: string, current: HandleOwner): HandleInspection {
    return classify(this.lookup(handle), current);
  }

  /**
   * Look the handle up once, to inspect it later (after an await) without a second digest.
   * One evicted in between still inspects as it was; `consume` then refuses it.
   */
  find(handle: string): HandleRef {
    const slot = this.lookup(handle);
    return { entry: slot?.entry, inspect: (current) => classify(slot, current) };
  }

  /**
   * Mark the handle used and return its entry, only if it was known and unused.
   * Synchronous check-and-set, so of two concurrent consumers exactly one wins.
   */
  consume(handle: string): HandleEntry | undefined {
    const slot = this.lookup(handle);
    if (slot === undefined || slot.used || slot.entry === undefined) return undefined;
    const entry = slot.entry;
    slot.used = true;
    slot.entry = undefined;
    this.held -= slot.chars;
    slot.chars = 0;
    return entry;
  }

  /** Number of remembered handles, used ones included. */
  size(): number {
    return this.slots.size;
  }

  private lookup(handle: string): Slot | undefined {
    if (typeof handle !== "string" || !HANDLE_SHAPE.test(handle)) return undefined;
    return this.slots.get(digest(handle));
  }
}
