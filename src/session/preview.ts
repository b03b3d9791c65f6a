/**
 * A preview (SPEC §6.2): proposed texts in place of files (`diagnose`, never a save), what
 * the server reports with them, the disk's texts back (`restore`, also after a failure) and
 * the disk's answer (`baseline`); nothing is written. The session is held alone throughout.
 */
import { FILES_AT_ONCE, sideBySide } from "../side-by-side.ts";
import { sha256Hex } from "../workspace/files.ts";
import { pathToUri } from "../workspace/uri.ts";
import { catchUp, documentRefresh } from "./catch-up.ts";
import {
  type FileDiagnostics,
  fileDiagnostics,
  offersPull,
  offersWorkspacePull,
} from "./diagnostics-settle.ts";
import type { OpenDocument } from "./documents.ts";
import type { Session, WaitContext } from "./session.ts";
import { NOT_PUBLISHED, workspacePull } from "./workspace-diagnostics.ts";

/** A text proposed for a file (workspace-confined absolute path; the file may not exist). */
export interface Proposed {
  abs: string;
  text: string;
}

/** Why a file the server published for during a preview, not open, is not proven complete. */
export const PUBLISHED_UNOPENED =
  "published for during the preview, not an open document: its last publish, not awaited";

/** The channel a preview cannot cover: runs (settle/runs.ts) check the files on disk. */
export function uncoveredChannel(session: Session): "push" | undefined {
  return session.runs !== null && session.settle.runs !== "ignored" ? "push" : undefined;
}

export class Preview {
  /** the proposed documents, by URI, as they went in */
  private readonly docs = new Map<string, OpenDocument>();

  constructor(
    private readonly session: Session,
    private readonly proposed: readonly Proposed[],
    /** files on disk checked beside them (the caller's dependents), opened if they are not */
    private readonly also: readonly string[] = [],
  ) {}

  /** The texts in, then the report of every file that may change meaning (SPEC §6.2). */
  async diagnose(wait: WaitContext): Promise<FileDiagnostics[]> {
    const s = this.session;
    const { documents, diagnostics } = s;
    const seq = diagnostics.seq;
    const uris = new Set(this.proposed.map((p) => pathToUri(p.abs)));
    const others: (OpenDocument | undefined)[] = [];
    if (documentRefresh(s, "diagnostics") !== "none") {
      // a push server builds each document afresh from an opening; the closings' publishes
      // arrive before the barrier's answer, never taken for the openings'
      others.push(...documents.uris().flatMap((u) => (uris.has(u) ? [] : [documents.get(u)])));
      for (const u of [...documents.uris()]) documents.close(u);
      await s.barrier(wait.signal);
    }
    for (const p of this.proposed) {
      const content = { abs: p.abs, text: p.text, sha256: sha256Hex(p.text), identity: null };
      this.docs.set(pathToUri(p.abs), documents.propose(content));
    }
    // opened after the proposed texts: their first build sees them (a server that publishes
    // per version publishes an unchanged document's version once)
    for (const d of others) if (d !== undefined) documents.propose({ ...d });
    for (const abs of this.also) {
      if (documents.get(pathToUri(abs)) !== undefined) continue;
      const disk = s.workspace.tryRead(abs);
      if (disk !== undefined && disk.abs === abs) documents.propose(disk);
    }
    if (s.server.ready.quiescent) await s.barrier(wait.signal);
    // the files asked about beside the proposed ones are waited for as they are
    const asked = new Set([...uris, ...this.also.map((abs) => pathToUri(abs))]);
    const reports = await this.settleOpen(wait, asked);
    const reported = new Set(reports.map((r) => r.uri));
    // a push server's publishes for files not open (gopls publishes a package's files)
    if (s.settle.previewPublishes) {
      for (const uri of diagnostics.publishedSince(seq)) {
        const items = diagnostics.push(uri)?.items ?? [];
        if (reported.has(uri) || items.length === 0) continue;
        reports.push({ uri, push: items, pull: undefined, unsettled: PUBLISHED_UNOPENED });
        reported.add(uri);
      }
    }
    if (offersWorkspacePull(s)) {
      for (const item of await workspacePull(s, wait)) {
        if (reported.has(item.uri)) continue;
        reports.push({ uri: item.uri, push: undefined, pull: item.items });
        reported.add(item.uri);
      }
    }
    return this.covered(reports);
  }

  /** The disk's texts back in the server; what it holds is the disk's again. */
  restore(): void {
    const { documents, diagnostics, workspace } = this.session;
    for (const [uri, doc] of this.docs) {
      // closed meanwhile (the server is gone, a settle failed): nothing of the preview is left
      if (documents.get(uri) !== doc) continue;
      const disk = workspace.tryRead(doc.abs);
      if (disk !== undefined && disk.abs === doc.abs) documents.propose(disk);
      else {
        documents.close(uri);
        diagnostics.forget(uri);
      }
    }
    this.docs.clear();
  }

  /** The files' answer as they are on disk (those that exist), after `restore`. */
  async baseline(files: readonly string[], wait: WaitContext): Promise<FileDiagnostics[]> {
    const s = this.session;
    // what changed on disk during the preview reaches the server now
    await catchUp(s, wait);
    if (s.server.ready.quiescent) await s.barrier(wait.signal);
    const refresh = documentRefresh(s, "diagnostics");
    const contents = files.flatMap((abs) => s.workspace.tryRead(abs) ?? []);
    const docs = [];
    for (const c of contents) docs.push(await s.documents.target(c, refresh, wait.signal));
    const proposed = new Set(this.proposed.map((p) => pathToUri(p.abs)));
    return this.covered(await this.settle(docs, wait, proposed));
  }

  private settleOpen(wait: WaitContext, proposed: ReadonlySet<string>): Promise<FileDiagnostics[]> {
    const { documents } = this.session;
    const open = documents.uris().flatMap((u) => documents.get(u) ?? []);
    return this.settle(open, wait, proposed);
  }

  /** Each settled as `diagnostics` does; a never-published, unproposed one not awaited. */
  private settle(
    docs: OpenDocument[],
    wait: WaitContext,
    proposed: ReadonlySet<string>,
  ): Promise<FileDiagnostics[]> {
    const s = this.session;
    const awaitsPush = s.settle.skipsUnpublished(offersPull(s));
    return sideBySide(docs, FILES_AT_ONCE, (doc) => {
      if (awaitsPush && !proposed.has(doc.uri) && !s.diagnostics.reportedEver(doc.uri)) {
        const push = s.diagnostics.push(doc.uri)?.items;
        return Promise.resolve({ uri: doc.uri, push, pull: undefined, unsettled: NOT_PUBLISHED });
      }
      return fileDiagnostics(s, doc, wait, false);
    });
  }

  /** Without the channel the preview cannot cover, in both answers alike. */
  private covered(reports: FileDiagnostics[]): FileDiagnostics[] {
    if (uncoveredChannel(this.session) === undefined) return reports;
    return reports.map((r) => ({ ...r, push: undefined }));
  }
}
