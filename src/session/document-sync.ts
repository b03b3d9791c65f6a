/**
 * The documents a session's server holds open (SPEC §5), as notifications: didOpen and
 * didChange by content hash with least recently used didClose (documents.ts keeps the
 * store), didSave where the server asks for it, and the resync of a file the applier wrote
 * (SPEC §7.4). Keeping those copies, and the files the server never opened, equal to the
 * disk before every call is coherence.ts, which works on this store.
 */
import type { Registration, ServerCapabilities } from "vscode-languageserver-protocol";
import type { BridgeConfig, ServerConfig, WorkspaceConfig } from "../config/types.ts";
import type { WorkspaceText } from "../workspace/confined.ts";
import type { ResolvedFile } from "../workspace/files.ts";
import { type CoherenceStatus, type Refresh, WorkspaceFollower } from "./coherence.ts";
import type { DiagnosticStore } from "./diagnostics.ts";
import { type DiskContent, DocumentStore, type OpenDocument } from "./documents.ts";

export interface DocumentSyncHost {
  readonly key: string;
  readonly workspace: WorkspaceConfig;
  readonly server: ServerConfig;
  readonly bridge: BridgeConfig;
  readonly diagnostics: DiagnosticStore;
  readonly registrations: Map<string, Registration>;
  /** a notification to the server of the current life; dropped when there is none */
  notify(method: string, params: unknown): void;
  languageIdFor(abs: string): string;
  capabilities(): ServerCapabilities | undefined;
  /** resolves once the server has handled every notification sent before it */
  barrier(signal?: AbortSignal): Promise<void>;
  /** the progress tracker's mark: diagnostics runs that begin after a save are awaited */
  progressMark(): number;
}

export class SessionDocuments {
  private store: DocumentStore;
  private follower: WorkspaceFollower;
  /** progress mark at the last didSave of this life; undefined: none (SPEC §6) */
  saveMark: number | undefined;

  constructor(private readonly host: DocumentSyncHost) {
    this.store = this.newStore();
    this.follower = this.newFollower();
  }

  private newStore(): DocumentStore {
    const { host } = this;
    return new DocumentStore(host.bridge.max_open_documents, {
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

  private newFollower(): WorkspaceFollower {
    const { host } = this;
    return new WorkspaceFollower({
      key: host.key,
      workspace: host.workspace,
      server: host.server,
      bridge: host.bridge,
      documents: this.store,
      diagnostics: host.diagnostics,
      registrations: host.registrations,
      notifyServer: (method, params) => host.notify(method, params),
      notifySaved: (doc) => this.saved(doc),
      languageIdFor: (abs) => host.languageIdFor(abs),
      barrier: (signal) => host.barrier(signal),
    });
  }

  /** A new server life: nothing is open, nothing is watched yet. */
  reset(): void {
    this.follower.close();
    this.store = this.newStore();
    this.follower = this.newFollower();
    this.saveMark = undefined;
  }

  /** The server is gone: forget everything (nothing to close), stop watching. */
  clear(): void {
    this.store.clear();
    this.follower.close();
  }

  /** Content just read from disk becomes the server's copy (SPEC §5); what was sent. */
  sync(content: DiskContent): { doc: OpenDocument; sent: "open" | "change" | "none" } {
    return this.follower.syncContent(content);
  }

  /** The document a call is about (SPEC §5.3); see WorkspaceFollower.syncTarget. */
  syncTarget(target: WorkspaceText | ResolvedFile, refresh: Refresh, signal?: AbortSignal) {
    return this.follower.syncTarget(target, refresh, signal);
  }

  /** Everything changed on disk reaches the server (SPEC §5.1, §5.2); what was sent. */
  followDisk(since?: number): OpenDocument[] {
    return this.follower.followDisk(since);
  }

  /** Whether the server registered file watchers (it is told of changes through them). */
  watching(): boolean {
    return this.follower.watching();
  }

  /** The server registered or unregistered capabilities (file watchers among them). */
  registrationsChanged(): void {
    this.follower.registrationsChanged();
  }

  /** didSave where the server asks for it: the disk changed, or the applier wrote the file. */
  private saved(doc: OpenDocument): void {
    const sync = this.host.capabilities()?.textDocumentSync;
    if (sync && typeof sync === "object" && sync.save) {
      this.saveMark = this.host.progressMark();
      const includeText = typeof sync.save === "object" && sync.save.includeText === true;
      this.host.notify("textDocument/didSave", {
        textDocument: { uri: doc.uri },
        ...(includeText ? { text: doc.text } : {}),
      });
    }
  }

  /** Close one document (the next call on it opens it afresh). */
  close(uri: string): void {
    this.store.close(uri);
  }

  get(uri: string): OpenDocument | undefined {
    return this.store.get(uri);
  }

  byPath(abs: string): OpenDocument | undefined {
    return this.store.byPath(abs);
  }

  count(): number {
    return this.store.count();
  }

  status(): CoherenceStatus {
    return this.follower.status();
  }
}
