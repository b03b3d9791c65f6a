/**
 * Diagnostics a session has received (SPEC §6): the latest publish and the latest pull per
 * URI. Bounded (SPEC §8.2): URIs outside the root are dropped, each diagnostic is a bounded
 * copy (diagnostic-caps.ts), and DIAGNOSTIC_LIMITS caps URIs, items and weight; every drop
 * is counted (`dropped()`), and a workspace answer after one says it is not complete.
 */
import type { Diagnostic, PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import { atOrBelow, type WorkspaceRoot } from "../workspace/paths.ts";
import { uriToPath } from "../workspace/uri.ts";
import { keptDiagnostic } from "./diagnostic-caps.ts";

export const DIAGNOSTIC_LIMITS = { uris: 20_000, items: 100_000, bytes: 64 * 1024 * 1024 } as const;

export interface PushEntry {
  version: number | undefined;
  items: Diagnostic[];
  /** the session's publish counter at this publish */
  seq: number;
  /** the items' weight (DIAGNOSTIC_LIMITS.bytes) */
  bytes: number;
}

export interface PullEntry {
  resultId: string | undefined;
  items: Diagnostic[];
}

interface StoredPull extends PullEntry {
  bytes: number;
}

export interface DroppedDiagnostics {
  /** reports for URIs outside the workspace root, or not files */
  outside_root: number;
  /** reports for new URIs while DIAGNOSTIC_LIMITS.uris were held */
  uris: number;
  /** diagnostics cut from reports at DIAGNOSTIC_LIMITS.items */
  items: number;
  /** diagnostics cut from reports at DIAGNOSTIC_LIMITS.bytes */
  bytes: number;
  /** diagnostics kept without their `data`, over its caps */
  data: number;
  /** diagnostics kept with a text cut or a note left out (DIAGNOSTIC_CAPS) */
  texts_cut: number;
  /** diagnostics without a range: not kept, as no answer would show them */
  malformed: number;
}

const NOTHING_DROPPED: DroppedDiagnostics = Object.freeze({
  outside_root: 0,
  uris: 0,
  items: 0,
  bytes: 0,
  data: 0,
  texts_cut: 0,
  malformed: 0,
});

/** What a report keeps: its bounded copies and their weight. */
type Admitted = Pick<PushEntry, "items" | "bytes">;

export class DiagnosticStore {
  private readonly pushed = new Map<string, PushEntry>();
  private readonly pulled = new Map<string, StoredPull>();
  private publishSeq = 0;
  /** diagnostics held in both maps */
  private held = 0;
  /** their weight */
  private heldBytes = 0;
  /** distinct URIs in both maps */
  private distinct = 0;
  private readonly drops: DroppedDiagnostics = { ...NOTHING_DROPPED };
  /** URIs already judged inside the root (a server publishes the same few over and over) */
  private readonly inside = new Set<string>();
  /** URIs reported on in an earlier server life (SPEC §6): a restart narrows no answer. */
  private readonly earlier = new Set<string>();

  /** `workspace`: whose root the URIs must lie under; without one (tests), every URI is kept. */
  constructor(private readonly workspace?: WorkspaceRoot) {}

  /** Monotonic counter of publishes; a document records it at sync time. */
  get seq(): number {
    return this.publishSeq;
  }

  onPublish(params: PublishDiagnosticsParams): void {
    this.publishSeq += 1;
    const kept = this.admit(params.uri, params.diagnostics, this.pushed.get(params.uri));
    if (kept === undefined) return;
    this.pushed.set(params.uri, {
      version: typeof params.version === "number" ? params.version : undefined,
      items: kept.items,
      seq: this.publishSeq,
      bytes: kept.bytes,
    });
  }

  /** Store a pull's report; returns what is kept of its items (the call answers with them). */
  setPull(uri: string, entry: PullEntry): Diagnostic[] {
    const kept = this.admit(uri, entry.items, this.pulled.get(uri));
    if (kept === undefined) return [];
    this.pulled.set(uri, { resultId: entry.resultId, items: kept.items, bytes: kept.bytes });
    return kept.items;
  }

  /** What to keep for `uri` in place of `replacing`, or undefined: nothing kept. */
  private admit(uri: string, list: unknown, replacing: Admitted | undefined): Admitted | undefined {
    if (!this.insideRoot(uri)) {
      this.drops.outside_root += 1;
      return undefined;
    }
    const known = this.pushed.has(uri) || this.pulled.has(uri);
    if (!known && this.distinct >= DIAGNOSTIC_LIMITS.uris) {
      this.drops.uris += 1;
      return undefined;
    }
    if (!known) this.distinct += 1;
    const items: unknown[] = Array.isArray(list) ? list : [];
    const room = DIAGNOSTIC_LIMITS.items - (this.held - (replacing?.items.length ?? 0));
    const byteRoom = DIAGNOSTIC_LIMITS.bytes - (this.heldBytes - (replacing?.bytes ?? 0));
    const kept = this.copies(items, room, byteRoom);
    this.held += kept.items.length - (replacing?.items.length ?? 0);
    this.heldBytes += kept.bytes - (replacing?.bytes ?? 0);
    return kept;
  }

  /** Bounded copies of `items` while `room` diagnostics and `byteRoom` bytes last; drops counted. */
  private copies(items: unknown[], room: number, byteRoom: number): Admitted {
    const out: Admitted = { items: [], bytes: 0 };
    let i = 0;
    for (; i < items.length && out.items.length < room; i++) {
      const kept = keptDiagnostic(items[i]);
      if (kept === undefined) {
        this.drops.malformed += 1;
        continue;
      }
      if (out.bytes + kept.weight > byteRoom) {
        this.drops.bytes += items.length - i;
        return out;
      }
      if (kept.dataDropped) this.drops.data += 1;
      if (kept.cut) this.drops.texts_cut += 1;
      out.items.push(kept.diagnostic);
      out.bytes += kept.weight;
    }
    this.drops.items += items.length - i;
    return out;
  }

  private insideRoot(uri: string): boolean {
    const ws = this.workspace;
    if (ws === undefined || this.inside.has(uri)) return true;
    const path = uriToPath(uri);
    const ok = path !== null && (atOrBelow(ws.root, path) || atOrBelow(ws.rootReal, path));
    if (ok && this.inside.size < DIAGNOSTIC_LIMITS.uris) this.inside.add(uri);
    return ok;
  }

  push(uri: string): PushEntry | undefined {
    return this.pushed.get(uri);
  }

  pull(uri: string): PullEntry | undefined {
    return this.pulled.get(uri);
  }

  /** The URIs whose stored publish arrived after publish number `seq`, sorted. */
  publishedSince(seq: number): string[] {
    const uris: string[] = [];
    for (const [uri, entry] of this.pushed) if (entry.seq > seq) uris.push(uri);
    return uris.sort();
  }

  /** Every URI with any stored diagnostics, sorted. */
  uris(): string[] {
    return [...new Set([...this.pushed.keys(), ...this.pulled.keys()])].sort();
  }

  /** The URIs reported on in an earlier server life and not in this one, sorted. */
  earlierUris(): string[] {
    return [...this.earlier].filter((u) => !this.pushed.has(u) && !this.pulled.has(u)).sort();
  }

  /** Whether the server reported on `uri` in this life or an earlier one of the session. */
  reportedEver(uri: string): boolean {
    return this.pushed.has(uri) || this.pulled.has(uri) || this.earlier.has(uri);
  }

  count(): number {
    return this.held;
  }

  /** What was not kept, by reason (session_status). */
  dropped(): DroppedDiagnostics {
    return { ...this.drops };
  }

  /** Whether any report for a workspace file was not kept whole (a workspace answer is partial). */
  incomplete(): boolean {
    return this.drops.uris > 0 || this.drops.items > 0 || this.drops.bytes > 0;
  }

  /** The weight of what is held (DIAGNOSTIC_LIMITS.bytes). */
  bytes(): number {
    return this.heldBytes;
  }

  /** Drop what is stored for a URI (its file no longer exists). */
  forget(uri: string): void {
    this.earlier.delete(uri);
    const push = this.pushed.get(uri);
    const pull = this.pulled.get(uri);
    if (push === undefined && pull === undefined) return;
    this.held -= (push?.items.length ?? 0) + (pull?.items.length ?? 0);
    this.heldBytes -= (push?.bytes ?? 0) + (pull?.bytes ?? 0);
    this.distinct -= 1;
    this.pushed.delete(uri);
    this.pulled.delete(uri);
  }

  /** A new server life: nothing kept but which URIs were reported on, nothing dropped yet. */
  clear(): void {
    for (const uri of this.uris()) {
      if (this.earlier.size >= DIAGNOSTIC_LIMITS.uris) break;
      this.earlier.add(uri);
    }
    this.pushed.clear();
    this.pulled.clear();
    this.inside.clear();
    this.held = 0;
    this.heldBytes = 0;
    this.distinct = 0;
    Object.assign(this.drops, NOTHING_DROPPED);
  }
}
