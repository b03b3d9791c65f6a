/**
 * The documents a session's server holds open (SPEC §5), as notifications: didOpen and
 * didChange by content hash with least recently used didClose (documents.ts keeps the
 * store), and after every didChange a didSave where the server asks for it — the content
 * is on disk already, whoever wrote it (an editor, the applier, SPEC §7.4), and servers
 * that check on save only (bacon-ls) would otherwise never see it. Whatever else keeps the server's copies equal to the disk belongs beside
 * this file.
 */
import type { ServerCapabilities } from "vscode-languageserver-protocol";
import { pathToUri } from "../workspace/uri.ts";
import { DocumentStore, type OpenDocument } from "./documents.ts";

export interface DocumentSyncHost {
  readonly maxOpenDocuments: number;
  /** a notification to the server of the current life; dropped when there is none */
  notify(method: string, params: unknown): void;
  languageIdFor(abs: string): string;
  /** the publish counter when a version is sent (diagnostics settle, SPEC §6) */
  publishSeq(): number;
  /** the `$/progress` begin count when a version is sent (the "progress" settle rule) */
  progressMark(): number;
  capabilities(): ServerCapabilities | undefined;
}

export class SessionDocuments {
  private store: DocumentStore;

  constructor(private readonly host: DocumentSyncHost) {
    this.store = this.newStore();
  }

  private newStore(): DocumentStore {
    const { host } = this;
    return new DocumentStore(host.maxOpenDocuments, {
      open: (d) =>
        host.notify("textDocument/didOpen", {
          textDocument: { uri: d.uri, languageId: d.languageId, version: d.version, text: d.text },
        }),
      change: (d) =>
        host.notify("textDocument/didChange", {
          textDocument: { uri: d.uri, version: d.version },
          contentChanges: [{ text: d.text }],
        }),
      close: (uri) => host.notify("textDocument/didClose", { textDocument: { uri } }),
    });
  }

  /** A new server life: nothing is open. */
  reset(): void {
    this.store = this.newStore();
  }

  /** The server is gone: forget everything (nothing to close). */
  clear(): void {
    this.store.clear();
  }

  /** Make the server's copy of a file current (SPEC §5): didOpen, or didChange + didSave. */
  sync(abs: string, text: string, sha256: string): OpenDocument {
    const uri = pathToUri(abs);
    const languageId = this.host.languageIdFor(abs);
    const marks = { syncSeq: this.host.publishSeq(), progressMark: this.host.progressMark() };
    const { doc, sent } = this.store.sync(abs, uri, languageId, text, sha256, marks);
    if (sent === "change") this.saved(doc);
    return doc;
  }

  private saved(doc: OpenDocument): void {
    const sync = this.host.capabilities()?.textDocumentSync;
    if (sync && typeof sync === "object" && sync.save) {
      const includeText = typeof sync.save === "object" && sync.save.includeText === true;
      this.host.notify("textDocument/didSave", {
        textDocument: { uri: doc.uri },
        ...(includeText ? { text: doc.text } : {}),
      });
    }
  }

  byPath(abs: string): OpenDocument | undefined {
    return this.store.byPath(abs);
  }

  count(): number {
    return this.store.count();
  }
}
