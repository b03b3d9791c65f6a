/**
 * Diagnostics a session has received (SPEC §6): pushes accumulated per URI
 * (each publish replaces that URI's set) and the latest pull result per URI.
 * Merging and normalization are pure (src/normalize/diagnostics.ts).
 *
 * Bounded (SPEC §8): diagnostics for a URI outside the workspace root (or not a file) are
 * dropped; at most DIAGNOSTIC_LIMITS.uris URIs and .items diagnostics are kept, a report
 * for a URI beyond the first bound is dropped and one passing the second is cut to what
 * fits. Every drop is counted (`dropped()`, in session_status), and a workspace-wide
 * answer after one says it is not complete.
 */
import type { Diagnostic, PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import { atOrBelow, type WorkspaceRoot } from "../workspace/paths.ts";
import { uriToPath } from "../workspace/uri.ts";

export const DIAGNOSTIC_LIMITS = { uris: 20_000, items: 100_000 } as const;

export interface PushEntry {
  version: number | undefined;
  items: Diagnostic[];
  /** the session's publish counter at this publish */
  seq: number;
}

export interface PullEntry {
  resultId: string | undefined;
  items: Diagnostic[];
}

export interface DroppedDiagnostics {
  /** reports for URIs outside the workspace root, or not files */
  outside_root: number;
  /** reports for new URIs while DIAGNOSTIC_LIMITS.uris were held */
  uris: number;
  /** diagnostics cut from reports at DIAGNOSTIC_LIMITS.items */
  items: number;
}

export class DiagnosticStore {
  private readonly pushed = new Map<string, PushEntry>();
  private readonly pulled = new Map<string, PullEntry>();
  private publishSeq = 0;
  /** diagnostics held in both maps */
  private held = 0;
  /** distinct URIs in both maps */
  private distinct = 0;
  private readonly drops: DroppedDiagnostics = { outside_root: 0, uris: 0, items: 0 };
  /** URIs already judged inside the root (a server publishes the same few over and over) */
  private readonly inside = new Set<string>();

  /** `workspace`: whose root the URIs must lie under; without one (tests), every URI is kept. */
  constructor(private readonly workspace?: WorkspaceRoot) {}

  /** Monotonic counter of publishes; a document records it at sync time. */
  get seq(): number {
    return this.publishSeq;
  }

  onPublish(params: PublishDiagnosticsParams): void {
    this.publishSeq += 1;
    const old = this.pushed.get(params.uri);
    const items = this.admit(params.uri, params.diagnostics, old?.items.length ?? 0);
    if (items === undefined) return;
    this.pushed.set(params.uri, {
      version: typeof params.version === "number" ? params.version : undefined,
      items,
      seq: this.publishSeq,
    });
  }

  setPull(uri: string, entry: PullEntry): void {
    const items = this.admit(uri, entry.items, this.pulled.get(uri)?.items.length ?? 0);
    if (items !== undefined) this.pulled.set(uri, { ...entry, items });
  }

  /** The items to keep for `uri` in place of `replacing` ones, or undefined: nothing kept. */
  private admit(uri: string, list: unknown, replacing: number): Diagnostic[] | undefined {
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
    const items = Array.isArray(list) ? (list as Diagnostic[]) : [];
    const room = DIAGNOSTIC_LIMITS.items - (this.held - replacing);
    const kept = items.length <= room ? items : items.slice(0, Math.max(room, 0));
    this.drops.items += items.length - kept.length;
    this.held += kept.length - replacing;
    return kept;
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

  count(): number {
    return this.held;
  }

  /** What was not kept, by reason (session_status). */
  dropped(): DroppedDiagnostics {
    return { ...this.drops };
  }

  /** Whether any report for a workspace file was not kept whole (a workspace answer is partial). */
  incomplete(): boolean {
    return this.drops.uris > 0 || this.drops.items > 0;
  }

  /** Drop what is stored for a URI (its file no longer exists). */
  forget(uri: string): void {
    const push = this.pushed.get(uri);
    const pull = this.pulled.get(uri);
    if (push === undefined && pull === undefined) return;
    this.held -= (push?.items.length ?? 0) + (pull?.items.length ?? 0);
    this.distinct -= 1;
    this.pushed.delete(uri);
    this.pulled.delete(uri);
  }

  /** A new server life: nothing kept, nothing dropped yet. */
  clear(): void {
    this.pushed.clear();
    this.pulled.clear();
    this.inside.clear();
    this.held = 0;
    this.distinct = 0;
    this.drops.outside_root = 0;
    this.drops.uris = 0;
    this.drops.items = 0;
  }
}
