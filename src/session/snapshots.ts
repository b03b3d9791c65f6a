/**
 * The diagnostics snapshots a bridge remembers for `diagnostics {since}` (SPEC §6.1), least
 * recently used dropped first, at most MAX_SNAPSHOTS and MAX_SNAPSHOT_BYTES besides the
 * newest (SPEC §8.2).
 */
import type { KeyedDiagnostics } from "../normalize/diagnostics-diff.ts";

export const MAX_SNAPSHOTS = 32;
/** SPEC §8.2: the estimated weight of all snapshots kept, besides the newest. */
export const MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024;
/** A kept diagnostic's objects (itself, its slot in the list) and its text's digest. */
const ITEM_BYTES = 192;
/** A note's object. */
const NOTE_BYTES = 96;

/** What a snapshot holds, estimated: each diagnostic's objects and messages. */
export function snapshotWeight(s: Snapshot): number {
  let bytes = 0;
  for (const item of s.items) {
    bytes += ITEM_BYTES + 2 * item.message.length;
    for (const note of item.related ?? []) bytes += NOTE_BYTES + 2 * note.message.length;
  }
  return bytes;
}

/** What `since` compares with: the result's diagnostics, all pages, with their texts' digests. */
export type Snapshot = KeyedDiagnostics;

export class SnapshotStore {
  private readonly byId = new Map<string, { snapshot: Snapshot; bytes: number }>();
  private bytes = 0;

  put(id: string, snapshot: Snapshot): void {
    this.drop(id);
    const bytes = snapshotWeight(snapshot);
    this.byId.set(id, { snapshot, bytes });
    this.bytes += bytes;
    while (
      this.byId.size > MAX_SNAPSHOTS ||
      (this.byId.size > 1 && this.bytes - bytes > MAX_SNAPSHOT_BYTES)
    ) {
      this.drop(this.byId.keys().next().value as string);
    }
  }

  private drop(id: string): void {
    const held = this.byId.get(id);
    if (held === undefined) return;
    this.bytes -= held.bytes;
    this.byId.delete(id);
  }

  get(id: string): Snapshot | undefined {
    const held = this.byId.get(id);
    if (held !== undefined) {
      this.byId.delete(id);
      this.byId.set(id, held);
    }
    return held?.snapshot;
  }

  get size(): number {
    return this.byId.size;
  }
}
