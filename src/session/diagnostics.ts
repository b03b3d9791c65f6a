/**
 * Diagnostics a session has received (SPEC §6): pushes accumulated per URI
 * (each publish replaces that URI's set) and the latest pull result per URI.
 * Merging and normalization are pure (src/normalize/diagnostics.ts).
 */
import type { Diagnostic, PublishDiagnosticsParams } from "vscode-languageserver-protocol";

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

export class DiagnosticStore {
  private readonly pushed = new Map<string, PushEntry>();
  private readonly pulled = new Map<string, PullEntry>();
  private publishSeq = 0;

  /** Monotonic counter of publishes; a document records it at sync time. */
  get seq(): number {
    return this.publishSeq;
  }

  onPublish(params: PublishDiagnosticsParams): void {
    this.publishSeq += 1;
    const items = Array.isArray(params.diagnostics) ? params.diagnostics : [];
    this.pushed.set(params.uri, {
      version: typeof params.version === "number" ? params.version : undefined,
      items,
      seq: this.publishSeq,
    });
  }

  setPull(uri: string, entry: PullEntry): void {
    this.pulled.set(uri, entry);
  }

  push(uri: string): PushEntry | undefined {
    return this.pushed.get(uri);
  }

  pull(uri: string): PullEntry | undefined {
    return this.pulled.get(uri);
  }

  /** Every URI with any stored diagnostics, sorted. */
  uris(): string[] {
    return [...new Set([...this.pushed.keys(), ...this.pulled.keys()])].sort();
  }

  count(): number {
    let n = 0;
    for (const e of this.pushed.values()) n += e.items.length;
    for (const e of this.pulled.values()) n += e.items.length;
    return n;
  }

  /** Drop what is stored for a URI (its file no longer exists). */
  forget(uri: string): void {
    this.pushed.delete(uri);
    this.pulled.delete(uri);
  }

  clear(): void {
    this.pushed.clear();
    this.pulled.clear();
  }
}
