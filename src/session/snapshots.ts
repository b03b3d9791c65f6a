/**
 * The diagnostics snapshots a bridge remembers (SPEC §6.1): the last 32
 * results by id, in memory, so `diagnostics {since}` can say what changed.
 * Least recently stored or used goes first.
 */
import type { KeyedDiagnostic } from "../normalize/diagnostics-diff.ts";

export const MAX_SNAPSHOTS = 32;

/** What `since` compares with: the result's diagnostics, all pages, with their match keys. */
export interface Snapshot {
  diagnostics: readonly KeyedDiagnostic[];
}

export class SnapshotStore {
  private readonly byId = new Map<string, Snapshot>();

  put(id: string, snapshot: Snapshot): void {
    this.byId.delete(id);
    this.byId.set(id, snapshot);
    while (this.byId.size > MAX_SNAPSHOTS) {
      const oldest = this.byId.keys().next().value as string;
      this.byId.delete(oldest);
    }
  }

  get(id: string): Snapshot | undefined {
    const s = this.byId.get(id);
    if (s !== undefined) {
      this.byId.delete(id);
      this.byId.set(id, s);
    }
    return s;
  }

  get size(): number {
    return this.byId.size;
  }
}
