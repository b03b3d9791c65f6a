/**
 * Documents a session has open (SPEC §5): `didOpen` the first time,
 * `didChange` with the full text and version + 1 when the content hash
 * changed, nothing otherwise; least recently used documents are closed past
 * `max_open_documents`.
 */
import { LineIndex } from "../lsp/positions.ts";

export interface OpenDocument {
  uri: string;
  abs: string;
  languageId: string;
  version: number;
  sha256: string;
  text: string;
  index: LineIndex;
  /** value of the session's publish counter when this version was sent (diagnostics settle, SPEC §6) */
  syncSeq: number;
  /** the session's `$/progress` begin count when this version was sent (SPEC §6 "progress") */
  progressMark: number;
}

/** Where the session's counters stood when a version was sent. */
export interface SyncMarks {
  syncSeq: number;
  progressMark: number;
}

export interface DocumentSink {
  open(doc: OpenDocument): void;
  change(doc: OpenDocument): void;
  close(uri: string): void;
}

export class DocumentStore {
  /** insertion order is recency order: the first entry is the least recently used */
  private readonly docs = new Map<string, OpenDocument>();
  /** abs → uri of the open documents (byPath runs for every file a result names) */
  private readonly uris = new Map<string, string>();

  constructor(
    private readonly max: number,
    private readonly sink: DocumentSink,
  ) {}

  /** Make the server's copy equal to `text`; returns the document and whether anything was sent. */
  sync(
    abs: string,
    uri: string,
    languageId: string,
    text: string,
    sha256: string,
    { syncSeq, progressMark }: SyncMarks,
  ): { doc: OpenDocument; sent: "open" | "change" | "none" } {
    const existing = this.docs.get(uri);
    if (existing) {
      this.docs.delete(uri);
      this.docs.set(uri, existing);
      if (existing.sha256 === sha256) return { doc: existing, sent: "none" };
      existing.version += 1;
      existing.sha256 = sha256;
      existing.text = text;
      existing.index = new LineIndex(text);
      existing.syncSeq = syncSeq;
      existing.progressMark = progressMark;
      this.sink.change(existing);
      return { doc: existing, sent: "change" };
    }
    const doc: OpenDocument = {
      uri,
      abs,
      languageId,
      version: 1,
      sha256,
      text,
      index: new LineIndex(text),
      syncSeq,
      progressMark,
    };
    this.docs.set(uri, doc);
    this.uris.set(abs, uri);
    this.sink.open(doc);
    this.evict(uri);
    return { doc, sent: "open" };
  }

  private evict(keep: string): void {
    for (const uri of this.docs.keys()) {
      if (this.docs.size <= this.max) break;
      if (uri === keep) continue;
      const doc = this.docs.get(uri);
      if (doc && this.uris.get(doc.abs) === uri) this.uris.delete(doc.abs);
      this.docs.delete(uri);
      this.sink.close(uri);
    }
  }

  get(uri: string): OpenDocument | undefined {
    return this.docs.get(uri);
  }

  byPath(abs: string): OpenDocument | undefined {
    const uri = this.uris.get(abs);
    return uri === undefined ? undefined : this.docs.get(uri);
  }

  count(): number {
    return this.docs.size;
  }

  /** Forget everything (the server is gone; nothing to close). */
  clear(): void {
    this.docs.clear();
    this.uris.clear();
  }
}
