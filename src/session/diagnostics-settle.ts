/**
 * Settled diagnostics for a synced document (SPEC §6): pull where the server
 * offers it, and wait for the push that belongs to the synced content by the
 * server's declared rule — state, never a sleep.
 */
import {
  type Diagnostic,
  type DocumentDiagnosticReport,
  DocumentDiagnosticRequest,
  type ExecuteCommandParams,
  type ExecuteCommandRequest,
} from "vscode-languageserver-protocol";
import type { OpenDocument } from "./documents.ts";
import type { Session, WaitContext } from "./session.ts";
import { lacksCapability } from "./session-errors.ts";
import { TSSERVER_REQUEST, tsserverDiagnostics } from "./tsserver-diagnostics.ts";

export interface FileDiagnostics {
  uri: string;
  push: Diagnostic[] | undefined;
  pull: Diagnostic[] | undefined;
  /** why this answer is not proven to be the server's finished check of the file now */
  unsettled?: string;
}

/** Why a `publish`-rule answer cannot be proven complete (SPEC §6). */
export const UNVERSIONED =
  "the server's publishes carry no version and no end signal: a later publish may differ";

export function offersPull(session: Session): boolean {
  return session.offers("diagnosticProvider", "textDocument/diagnostic");
}

export function offersWorkspacePull(session: Session): boolean {
  const p = session.capabilities?.diagnosticProvider;
  if (p && typeof p === "object" && "workspaceDiagnostics" in p && p.workspaceDiagnostics)
    return true;
  for (const r of session.registrations.values()) {
    const opts = r.registerOptions as { workspaceDiagnostics?: boolean } | undefined;
    if (r.method === "textDocument/diagnostic" && opts?.workspaceDiagnostics) return true;
  }
  return false;
}

export async function pullDocument(
  session: Session,
  uri: string,
  wait: WaitContext,
): Promise<Diagnostic[]> {
  const previous = session.diagnostics.pull(uri);
  const report: DocumentDiagnosticReport | null = await session.request(
    DocumentDiagnosticRequest.type,
    {
      textDocument: { uri },
      ...(previous?.resultId ? { previousResultId: previous.resultId } : {}),
    },
    wait,
  );
  if (report && report.kind === "unchanged" && previous) return previous.items;
  const items = report && report.kind === "full" && Array.isArray(report.items) ? report.items : [];
  return session.diagnostics.setPull(uri, { resultId: report?.resultId, items });
}

/** Wait until the push for the document's synced content has arrived (SPEC §6 settle rules). */
export async function settlePush(
  session: Session,
  doc: OpenDocument,
  wait: WaitContext,
  exact = false,
): Promise<void> {
  const store = session.diagnostics;
  const rule = session.server.diagnostics_settle;
  if (rule === "pull") return;
  if (rule === "quiescent") {
    await session.waitUntil(
      () => (session.readiness.status?.quiescent === true ? true : undefined),
      "quiescence after the change",
      wait.signal,
    );
    return;
  }
  await session.waitUntil(
    () => {
      const e = store.push(doc.uri);
      if (!e || e.seq <= doc.syncSeq) {
        // a publish from before this sync may still carry this version (unchanged content)
        return e && rule === "version" && e.version === doc.version ? true : undefined;
      }
      if (rule === "publish") return true;
      // "version": the publish must carry the synced version; one without a version counts
      // too, unless `exact` (a preview: a file opened in a change set may get a publish of
      // the set's state before its own opening, without a version)
      if (e.version === undefined) return exact ? undefined : true;
      return e.version >= doc.version ? true : undefined;
    },
    rule === "version"
      ? `publishDiagnostics for ${doc.uri} version ${doc.version}`
      : `publishDiagnostics for ${doc.uri}`,
    wait.signal,
  );
}

/**
 * A diagnostics run of the server (`diagnostics_progress`: bacon's check, rust-analyzer's
 * cargo check) publishes partial snapshots while it runs: wait until none is running;
 * with the "progress" rule until at least one has completed; and after a didSave (the
 * disk changed, SPEC §5.3) until a run that began after that save has completed. Then a
 * barrier: what the server published in the turn that ended the run is in — and for a
 * server that publishes from worker threads, its `diagnostics_barrier` request as well, and
 * with `diagnostics_republish` a last publish of every file the run published.
 */
export async function settleRuns(session: Session, wait: WaitContext): Promise<void> {
  const patterns = session.runPatterns;
  if (patterns.length === 0) return;
  const needCompleted = session.server.diagnostics_settle === "progress";
  const { saves } = session.documents;
  saves.requestIfWanted();
  const { progress } = session;
  // read at each check: a run the bridge requests moves the mark (saves.ts)
  const done = () =>
    !saves.runOwed &&
    progress.activeMatching(patterns).length === 0 &&
    (!needCompleted || progress.endedMatching(patterns)) &&
    (saves.mark === undefined || progress.endedMatching(patterns, saves.mark));
  const what =
    saves.mark === undefined
      ? `the end of the server's diagnostics run (${session.server.diagnostics_progress.join(", ")})`
      : `a diagnostics run (${session.server.diagnostics_progress.join(", ")}) after the last change`;
  // settled once the condition still holds after a barrier: a run starting clears what the
  // last one published (rust-analyzer), and its begin may be in flight when the condition
  // is first seen to hold
  const pool = session.server.diagnostics_barrier;
  for (let round = 0; ; round++) {
    await session.waitUntil(() => (done() ? true : undefined), what, wait.signal);
    const published = session.diagnostics.seq;
    await session.barrier(wait.signal);
    // a server publishing from worker threads: its barrier request follows those publishes;
    // asked again while publishes still arrive (a bounded number of rounds)
    if (pool !== null) await session.barrier(wait.signal, pool);
    const quiet = pool === null || session.diagnostics.seq === published;
    if (!done() || (!quiet && round < MAX_BARRIER_ROUNDS)) continue;
    // publishes of one file that crossed on the server's threads are asked for once more
    // (republish.ts; the key requires `diagnostics_barrier`): awaited through the rounds above
    if (round >= MAX_BARRIER_ROUNDS || !session.documents.republish.round()) return;
  }
}

/** Rounds of `diagnostics_barrier` while publishes keep coming, before answering anyway. */
const MAX_BARRIER_ROUNDS = 16;

/** `runs`: false where the runs cannot answer — a preview's texts are not on disk (SPEC §6.2). */
export async function fileDiagnostics(
  session: Session,
  doc: OpenDocument,
  wait: WaitContext,
  runs = true,
): Promise<FileDiagnostics> {
  if (session.server.diagnostics_settle === "tsserver") {
    const commands = session.capabilities?.executeCommandProvider?.commands ?? [];
    if (!commands.includes(TSSERVER_REQUEST)) {
      throw lacksCapability(session.server.name, `workspace/executeCommand ${TSSERVER_REQUEST}`);
    }
    // asked of tsserver after everything sent before: complete, and what it publishes is not
    const execute = (type: typeof ExecuteCommandRequest.type, params: ExecuteCommandParams) =>
      session.request(type, params, wait);
    const items = await tsserverDiagnostics(execute, doc.abs);
    const pull = session.diagnostics.setPull(doc.uri, { resultId: undefined, items });
    return { uri: doc.uri, push: undefined, pull };
  }
  const rule = session.server.diagnostics_settle;
  // the `pull` rule declares that the server answers pulls, announced or not (astro-ls)
  const pulls = offersPull(session) || rule === "pull";
  // a quiescent server answers pulls from its last load: asked once it is quiescent again
  if (rule === "quiescent") await settlePush(session, doc, wait);
  const pull = pulls ? await pullDocument(session, doc.uri, wait) : undefined;
  // A server that answers pulls is settled by the pull response (SPEC §6); its pushes, if
  // any, are merged as accumulated. pyright, once it registers pull, pushes nothing.
  if (rule !== "progress" && rule !== "quiescent" && !pulls) {
    try {
      await settlePush(session, doc, wait, !runs);
    } catch (err) {
      // the publish never came: the next call opens the document afresh (SPEC §5.4)
      session.documents.close(doc.uri);
      throw err;
    }
  }
  if (runs) await settleRuns(session, wait);
  const push = session.diagnostics.push(doc.uri)?.items;
  return rule === "publish" && !pulls
    ? { uri: doc.uri, push, pull, unsettled: UNVERSIONED }
    : { uri: doc.uri, push, pull };
}
