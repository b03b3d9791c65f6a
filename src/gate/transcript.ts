/**
 * The bounded gate transcript (SPEC §7.2, surfaced as
 * `session_status.gate_decisions`). Metadata only: a record never holds edit
 * text, handles or file contents, because the transcript is shown to clients.
 */

import type { GateReason } from "./decide.ts";

export type GateTool = "code_action_apply" | "rename_apply" | "formatting_apply";

export interface GateRecord {
  /** 1-based, increasing for the life of the transcript (gaps show evictions) */
  seq: number;
  /** ISO 8601 time of the decision */
  at: string;
  tool: GateTool;
  client: string | null;
  workspace: string | null;
  server: string | null;
  allow: boolean;
  reason: GateReason;
  /** number of target files, 0 if unknown (e.g. a forged handle) */
  files: number;
}

export type GateRecordInput = Omit<GateRecord, "seq" | "at">;

const DEFAULT_CAPACITY = 256;

export class GateTranscript {
  private readonly capacity: number;
  private readonly records: GateRecord[] = [];
  private nextSeq = 1;

  constructor(capacity: number = DEFAULT_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`transcript capacity must be a positive integer, got ${capacity}`);
    }
    this.capacity = capacity;
  }

  /** Append a decision, evicting the oldest beyond capacity. */
  record(r: GateRecordInput): GateRecord {
    // Copy field by field (no spread): a caller passing a wider object must not
    // smuggle extra data such as edit text into the transcript.
    const rec: GateRecord = {
      seq: this.nextSeq++,
      at: new Date().toISOString(),
      tool: r.tool,
      client: r.client,
      workspace: r.workspace,
      server: r.server,
      allow: r.allow,
      reason: r.reason,
      files: r.files,
    };
    this.records.push(rec);
    if (this.records.length > this.capacity) this.records.shift();
    return { ...rec };
  }

  /** Oldest first; copies, so callers cannot rewrite history. */
  list(): GateRecord[] {
    return this.records.map((r) => ({ ...r }));
  }
}
