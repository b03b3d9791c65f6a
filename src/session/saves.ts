import { log } from "../log.ts";
import type { SessionContext } from "./context.ts";
import type { OpenDocument, ServerLink } from "./document-store.ts";

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
    private readonly server: Pick<ServerLink, "notify" | "capabilities" | "loaded">,
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

  /** A run the bridge starts is still to begin, or a load (which cancels runs) goes on. */
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

  /** A run-based server finished a load: a run requested before may have been dropped. */
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

  /** Request a wanted run once loaded, none still to begin (it would merge into that one). */
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
