/**
 * Documents a session has open (SPEC §5): didOpen, didChange of the whole text when its hash
 * changed, LRU didClose past `max_open_documents`. A URI's versions only grow, across
 * reopens, so a publish for an earlier opening never passes for the current one (SPEC §6).
 */
import type { ServerCapabilities } from "vscode-languageserver-protocol";
import { LineIndex } from "../text/line-index.ts";
import type { LineModel } from "../text/line-model.ts";
import { wholeChangeRange } from "../text/line-rule.ts";
import type { PositionEncoding } from "../text/positions.ts";
import type { FileIdentity } from "../workspace/confined.ts";
import { takesRanges } from "./server-capabilities.ts";

export interface OpenDocument {
  uri: string;
  abs: string;
  languageId: string;
  version: number;
  sha256: string;
  text: string;
  /** its lines as the client counts them, and the server's beside them (SPEC §5) */
  index: LineIndex;
  /** the file's identity when this content was read (SPEC §5.1); null: unknown, read again */
  identity: FileIdentity | null;
  /** value of the session's publish counter when this version was sent (diagnostics settle, SPEC §6) */
  syncSeq: number;
  /** the session's workspace generation this version was sent at (SPEC §5.3) */
  generation: number;
  /** this version was sent by didOpen (not didChange) */
  opened: boolean;
}

export interface DocumentSink {
  open(doc: OpenDocument): void;
  /** `old`: the lines of the text the server held until now */
  change(doc: OpenDocument, old: LineIndex): void;
  close(uri: string): void;
}

/** What the documents need of the running server. */
export interface ServerLink {
  /** a notification to the server of the current life; dropped when there is none */
  notify(method: string, params: unknown): void;
  capabilities(): ServerCapabilities | undefined;
  /** the encoding of the positions it reads */
  encoding(): PositionEncoding;
  /** resolves once the server has handled every notification sent before it */
  barrier(signal?: AbortSignal): Promise<void>;
  /** the server has loaded its project (readiness.ts `loaded`) */
  loaded(): boolean;
}

export type SyncResult = { doc: OpenDocument; sent: "open" | "change" | "none" };

/**
 * The notifications of a server's documents; a change names its range where the server's
 * lines are not LSP's (SPEC §5, text/line-rule.ts).
 */
export function serverSink(
  server: Pick<ServerLink, "notify" | "capabilities" | "encoding">,
): DocumentSink {
  return {
    open: (d) =>
      server.notify("textDocument/didOpen", {
        textDocument: { uri: d.uri, languageId: d.languageId, version: d.version, text: d.text },
      }),
    change: (d, old) => {
      const range = wholeChangeRange(old, server.encoding(), takesRanges(server.capabilities()));
      server.notify("textDocument/didChange", {
        textDocument: { uri: d.uri, version: d.version },
        contentChanges: [range ? { range, text: d.text } : { text: d.text }],
      });
    },
    close: (uri) => server.notify("textDocument/didClose", { textDocument: { uri } }),
  };
}

/** Content just read from disk (confined.ts WorkspaceText fits). */
export interface DiskContent {
  abs: string;
  text: string;
  sha256: string;
  /** null: not known (the next look reads the file again) */
  identity: FileIdentity | null;
}

/** What a sync is stamped with: the session's publish counter and workspace generation. */
export interface SyncStamp {
  seq: number;
  generation: number;
}

export class DocumentStore {
  /** insertion order is recency order: the first entry is the least recently used */
  private readonly docs = new Map<string, OpenDocument>();
  /** the last version sent for every URI ever opened, so a reopen continues above it */
  private readonly lastVersion = new Map<string, number>();
  /** abs → uri of the open documents (looked up for every file a result names) */
  private readonly uris = new Map<string, string>();
  /** the paths of the open documents, read-only */
  readonly paths: ReadonlyMap<string, string> = this.uris;

  constructor(
    private readonly max: number,
    private readonly sink: DocumentSink,
    /** where the server breaks lines: in what it reads, and in its answers */
    private readonly lines: LineModel,
    private readonly answerLines: LineModel,
  ) {}

  /** Make the server's copy equal to `content`; returns the document and what was sent. */
  sync(uri: string, languageId: string, content: DiskContent, stamp: SyncStamp): SyncResult {
    const { abs } = content;
    const existing = this.docs.get(uri);
    if (existing) {
      this.docs.delete(uri);
      this.docs.set(uri, existing);
      if (existing.sha256 === content.sha256) {
        existing.identity = content.identity;
        return { doc: existing, sent: "none" };
      }
      this.replace(existing, content, stamp);
      return { doc: existing, sent: "change" };
    }
    const doc: OpenDocument = {
      uri,
      abs,
      languageId,
      version: (this.lastVersion.get(uri) ?? 0) + 1,
      sha256: content.sha256,
      text: content.text,
      index: new LineIndex(content.text, this.lines, this.answerLines),
      identity: content.identity,
      syncSeq: stamp.seq,
      generation: stamp.generation,
      opened: true,
    };
    this.docs.set(uri, doc);
    this.uris.set(abs, uri);
    this.lastVersion.set(uri, doc.version);
    this.sink.open(doc);
    this.evict(uri);
    return { doc, sent: "open" };
  }

  /** New content for an open document, without touching its recency (following the disk). */
  replace(doc: OpenDocument, content: DiskContent, stamp: SyncStamp): void {
    const old = doc.index;
    doc.sha256 = content.sha256;
    doc.text = content.text;
    doc.index = new LineIndex(content.text, this.lines, this.answerLines);
    doc.identity = content.identity;
    doc.opened = false;
    doc.version += 1;
    doc.syncSeq = stamp.seq;
    doc.generation = stamp.generation;
    this.lastVersion.set(doc.uri, doc.version);
    this.sink.change(doc, old);
  }

  /** Close one document (gone from disk, or closed to be opened afresh). */
  close(uri: string): OpenDocument | undefined {
    const doc = this.docs.get(uri);
    if (!doc) return undefined;
    this.forget(doc);
    this.sink.close(uri);
    return doc;
  }

  private forget(doc: OpenDocument): void {
    if (this.uris.get(doc.abs) === doc.uri) this.uris.delete(doc.abs);
    this.docs.delete(doc.uri);
  }

  private evict(keep: string): void {
    for (const uri of this.docs.keys()) {
      if (this.docs.size <= this.max) break;
      if (uri === keep) continue;
      const doc = this.docs.get(uri);
      if (doc) this.forget(doc);
      this.sink.close(uri);
    }
  }

  /** Whether the URI was opened in this server life (it may be closed now). */
  openedBefore(uri: string): boolean {
    return this.lastVersion.has(uri);
  }

  get(uri: string): OpenDocument | undefined {
    return this.docs.get(uri);
  }

  byPath(abs: string): OpenDocument | undefined {
    const uri = this.uris.get(abs);
    return uri === undefined ? undefined : this.docs.get(uri);
  }

  /** Every open document, least recently used first. */
  all(): OpenDocument[] {
    return [...this.docs.values()];
  }

  count(): number {
    return this.docs.size;
  }

  /** Forget everything (the server is gone; nothing to close). */
  clear(): void {
    this.docs.clear();
    this.lastVersion.clear();
    this.uris.clear();
  }
}
