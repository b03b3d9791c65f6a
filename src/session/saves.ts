/**
 * The didSaves a session sends (SPEC §5, §5.3): where the server asks for saves, a document
 * whose content changed on disk is saved; and a server whose diagnostics come from check
 * runs (`diagnostics_progress`: bacon-ls, rust-analyzer's cargo check) checks again on a
 * save only, so a change it was told of otherwise — a file event, a file it never opened —
 * is paid with a didSave of an open document, at once or when the next document opens.
 * `mark` is the progress mark at the last save (or load, `loaded`): a diagnostics answer
 * after it waits for a run that began after it (diagnostics-settle.ts).
 */
import type { ServerCapabilities } from "vscode-languageserver-protocol";
import type { SessionContext } from "./context.ts";
import type { OpenDocument } from "./document-store.ts";

/** What saving needs of the running server (documents.ts ServerLink). */
interface SaveLink {
  notify(method: string, params: unknown): void;
  capabilities(): ServerCapabilities | undefined;
}

export class Saves {
  /** progress mark at the last didSave of this life; undefined: none */
  mark: number | undefined;
  private owed = false;

  constructor(
    private readonly ctx: SessionContext,
    private readonly server: SaveLink,
  ) {}

  /** A new server life: nothing saved, nothing owed. */
  reset(): void {
    this.mark = undefined;
    this.owed = false;
  }

  /** didSave of `doc` where the server asks for it: the disk changed, or the applier wrote it. */
  saved(doc: OpenDocument): void {
    const sync = this.server.capabilities()?.textDocumentSync;
    if (sync && typeof sync === "object" && sync.save) {
      this.mark = this.ctx.progress.beginCount;
      const includeText = typeof sync.save === "object" && sync.save.includeText === true;
      this.server.notify("textDocument/didSave", {
        textDocument: { uri: doc.uri },
        ...(includeText ? { text: doc.text } : {}),
      });
    }
  }

  /**
   * A run-based server that reports quiescence became quiescent after a load (rust-analyzer
   * reloading its workspace): it starts a run of its own afterwards, with the new state, so
   * an answer waits for a run that began after now — not for one the load cut short.
   */
  loaded(): void {
    if (this.ctx.server.diagnostics_progress.length > 0) this.mark = this.ctx.progress.beginCount;
  }

  /** The server was told of a change without a save: a run-based server is owed one. */
  owe(): void {
    if (this.ctx.server.diagnostics_progress.length > 0) this.owed = true;
  }

  /** Pay an owed save with `doc` (the most recently used open document), if there is one. */
  pay(doc: OpenDocument | undefined): void {
    if (!this.owed || doc === undefined) return;
    this.owed = false;
    this.saved(doc);
  }
}
