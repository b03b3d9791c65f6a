/**
 * The didSaves and diagnostics runs a session asks for (SPEC §5.3). Where the server asks
 * for saves, a document whose content changed on disk is saved. A server whose diagnostics
 * come from check runs (settle/runs.ts) checks again on a save only — so a change
 * it was told of otherwise (a file event, a file it never opened) is paid with a didSave
 * of an open document — or, with a run `start`, never of its own accord: the bridge
 * then starts each run itself, after the server has loaded and one at a time, so the run
 * that answers for a change is known and no other run can cancel it.
 * `mark` is the progress mark a diagnostics answer waits past: a run that began after it
 * must have ended (diagnostics-settle.ts).
 */
import type { ServerCapabilities } from "vscode-languageserver-protocol";
import { log } from "../log.ts";
import type { SessionContext } from "./context.ts";
import type { OpenDocument } from "./document-store.ts";

/** What saving needs of the running server (documents.ts ServerLink). */
interface SaveLink {
  notify(method: string, params: unknown): void;
  capabilities(): ServerCapabilities | undefined;
  /** the server has loaded its project (readiness.ts `loaded`) */
  loaded(): boolean;
}

export class Saves {
  /** progress mark at the last didSave or run request of this life; undefined: none */
  mark: number | undefined;
  private owed = false;
  /** runs the bridge starts: a change no requested run has begun after yet */
  private wanted = false;
  /** runs the bridge starts: a run requested whose begin has not been seen */
  private requested = false;
  private requestQueued = false;

  constructor(
    private readonly ctx: SessionContext,
    private readonly server: SaveLink,
  ) {
    this.reset();
  }

  /** the run `start`, where the session serves diagnostics: no run is wasted otherwise */
  private get runRequest() {
    const { server, runs } = this.ctx;
    return server.roles.includes("diagnostics") ? (runs?.start ?? null) : null;
  }

  /** A new server life: nothing saved; a server whose runs the bridge starts wants one. */
  reset(): void {
    this.mark = undefined;
    this.owed = false;
    this.wanted = this.runRequest !== null;
    this.requested = false;
  }

  /**
   * A run the bridge starts is still to begin — or the server is loading, and the end of the
   * load will want one (a load cancels the running check): an answer waits.
   */
  get runOwed(): boolean {
    if (this.runRequest === null) return false;
    return this.wanted || this.requested || !this.server.loaded();
  }

  /** didSave of `doc` where the server asks for it: the disk changed, or the applier wrote it. */
  saved(doc: OpenDocument): void {
    const sync = this.server.capabilities()?.textDocumentSync;
    if (sync && typeof sync === "object" && sync.save) {
      if (this.runRequest === null) this.mark = this.ctx.progress.beginCount;
      const includeText = typeof sync.save === "object" && sync.save.includeText === true;
      this.server.notify("textDocument/didSave", {
        textDocument: { uri: doc.uri },
        ...(includeText ? { text: doc.text } : {}),
      });
    }
    this.want();
  }

  /**
   * A run-based server that reports quiescence finished a load (rust-analyzer reloading its
   * workspace): its next run checks what it loaded, and a run requested before may have
   * been dropped with the load. Without a run `start` it starts that run itself.
   */
  loaded(): void {
    if (this.ctx.runs === null) return;
    if (this.runRequest === null) {
      this.mark = this.ctx.progress.beginCount;
      return;
    }
    this.requested = false;
    this.want();
  }

  /** The server was told of a change without a save: a run-based server is owed one. */
  owe(): void {
    if (this.ctx.runs === null) return;
    if (this.runRequest === null) this.owed = true;
    else this.want();
  }

  /** Pay an owed save with `doc` (the most recently used open document), if there is one. */
  pay(doc: OpenDocument | undefined): void {
    if (!this.owed || doc === undefined) return;
    this.owed = false;
    this.saved(doc);
  }

  /** Progress from the server: the requested run began, so the next may be requested. */
  progressed(): void {
    const { runs, progress } = this.ctx;
    if (!this.requested || this.mark === undefined || runs === null) return;
    if (!progress.begunMatching(runs.patterns, this.mark)) return;
    this.requested = false;
    this.requestIfWanted();
  }

  /** runs the bridge starts: a change wants a run; requested after this turn's other messages. */
  private want(): void {
    if (this.runRequest === null) return;
    this.wanted = true;
    if (this.requestQueued) return;
    this.requestQueued = true;
    queueMicrotask(() => {
      this.requestQueued = false;
      this.requestIfWanted();
    });
  }

  /**
   * Request a run when one is wanted, none requested is still to begin (a request while
   * one waits out the server's debounce would be merged into it), and the server has
   * loaded (a load drops the runs requested during it).
   */
  requestIfWanted(): void {
    const run = this.runRequest;
    if (run === null || !this.wanted || this.requested || !this.server.loaded()) return;
    this.wanted = false;
    this.requested = true;
    this.mark = this.ctx.progress.beginCount;
    this.server.notify(run.method, run.params);
    log.debug(
      `[${this.ctx.key}] diagnostics run requested (${run.method}, after begin ${this.mark})`,
    );
    this.ctx.life.changes.notify();
  }
}
