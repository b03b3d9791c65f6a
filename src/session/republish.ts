/**
 * Republish rounds (SPEC §6, settle/runs.ts `republish`): publishes sent from worker threads
 * can arrive out of order, so after a run every file published since the last round is
 * closed (reopened where open) and published again from the server's final state
 * (docs/LANGUAGE-SERVERS.md#rust-analyzer-cancelled-checks).
 */
import { log } from "../log.ts";
import type { SessionContext } from "./context.ts";

/** What a round needs of the documents (documents.ts). */
export interface RepublishLink {
  /** a notification to the server of the current life */
  notify(method: string, params: unknown): void;
  /** close and open again with the same text; false: the session has it not open */
  reopen(uri: string): boolean;
}

export class Republisher {
  /** the publish count once the last round's publishes were in: later ones are owed a round */
  private settledSeq = 0;
  /** a round sent and not yet confirmed: the run count when it was sent */
  private pending: number | undefined;

  constructor(
    private readonly ctx: SessionContext,
    private readonly link: RepublishLink,
  ) {}

  /** A new server life: nothing published yet. */
  reset(): void {
    this.settledSeq = 0;
    this.pending = undefined;
  }

  /** Once a run's publishes are in: ask again for files published since; true: one sent. */
  round(): boolean {
    if (this.ctx.runs?.republish !== true) return false;
    const { diagnostics, progress } = this.ctx;
    if (this.pending !== undefined) {
      // a run begun since may have published after the round: its files go again
      if (progress.beginCount === this.pending) this.settledSeq = diagnostics.seq;
      this.pending = undefined;
    }
    const uris = diagnostics.publishedSince(this.settledSeq);
    if (uris.length === 0) return false;
    this.pending = progress.beginCount;
    let reopened = 0;
    for (const uri of uris) {
      if (this.link.reopen(uri)) reopened += 1;
      else this.link.notify("textDocument/didClose", { textDocument: { uri } });
    }
    log.debug(`[${this.ctx.key}] republish asked for ${uris.length} files (${reopened} reopened)`);
    return true;
  }
}
