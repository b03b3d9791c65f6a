/** Settled diagnostics for a synced document (SPEC §6): pulled, or awaited as settle/ says. */
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

export function offersPull(session: Session): boolean {
  return session.offers("diagnosticProvider", "textDocument/diagnostic");
}

export function offersWorkspacePull(session: Session): boolean {
  const p = session.process.capabilities?.diagnosticProvider;
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

/** Wait for what the document's synced content is owed by the settle rule (SPEC §6). */
export async function settlePush(
  session: Session,
  doc: OpenDocument,
  wait: WaitContext,
  exact = false,
): Promise<void> {
  const owed = session.settle.afterSync(doc, exact);
  if (owed === null) return;
  const done =
    owed.on === "quiescence"
      ? () => session.driver.readiness.status?.quiescent === true
      : () => owed.pushed(session.diagnostics.push(doc.uri));
  await session.waitUntil(() => (done() ? true : undefined), owed.what, wait.signal);
}

/**
 * A server's diagnostics runs (settle/runs.ts) publish partial snapshots: wait until none
 * runs (one completed, where the rule says so; one begun after the last save, SPEC §5.3),
 * then a barrier, the runs' own `barrier` and `republish` where configured.
 */
export async function settleRuns(session: Session, wait: WaitContext): Promise<void> {
  const { runs, saves, progress } = session;
  if (runs === null) return;
  const { patterns } = runs;
  const needCompleted = session.settle.runs === "completed";
  saves.requestIfWanted();
  // read at each check: a run the bridge requests moves the mark (saves.ts)
  const done = () =>
    !saves.runOwed &&
    progress.activeMatching(patterns).length === 0 &&
    (!needCompleted || progress.endedMatching(patterns)) &&
    (saves.mark === undefined || progress.endedMatching(patterns, saves.mark));
  const what =
    saves.mark === undefined
      ? `the end of the server's diagnostics run (${runs.sources.join(", ")})`
      : `a diagnostics run (${runs.sources.join(", ")}) after the last change`;
  // settled once the condition still holds after a barrier: a run starting clears what the
  // last one published (rust-analyzer), and its begin may be in flight when the condition
  // is first seen to hold
  const pool = runs.barrier;
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
    // (republish.ts; only with a `barrier`): awaited through the rounds above
    if (round >= MAX_BARRIER_ROUNDS || !session.republish.round()) return;
  }
}

/** Rounds of the runs' `barrier` while publishes keep coming, before answering anyway. */
const MAX_BARRIER_ROUNDS = 16;

/** `runs`: false where the runs cannot answer — a preview's texts are not on disk (SPEC §6.2). */
export async function fileDiagnostics(
  session: Session,
  doc: OpenDocument,
  wait: WaitContext,
  runs = true,
): Promise<FileDiagnostics> {
  const how = session.settle.file(offersPull(session));
  if (how.ask === "tsserver") return askTsserver(session, doc, wait);
  if (how.waitFirst) await settlePush(session, doc, wait);
  const pull = how.ask === "pull" ? await pullDocument(session, doc.uri, wait) : undefined;
  if (how.waitAfter) {
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
  return how.unsettled === undefined
    ? { uri: doc.uri, push, pull }
    : { uri: doc.uri, push, pull, unsettled: how.unsettled };
}

/** Asked of tsserver after everything sent before: complete, and what it publishes is not. */
async function askTsserver(
  session: Session,
  doc: OpenDocument,
  wait: WaitContext,
): Promise<FileDiagnostics> {
  const commands = session.process.capabilities?.executeCommandProvider?.commands ?? [];
  if (!commands.includes(TSSERVER_REQUEST)) {
    throw lacksCapability(session.server.name, `workspace/executeCommand ${TSSERVER_REQUEST}`);
  }
  const execute = (type: typeof ExecuteCommandRequest.type, params: ExecuteCommandParams) =>
    session.request(type, params, wait);
  const items = await tsserverDiagnostics(execute, doc.abs);
  const pull = session.diagnostics.setPull(doc.uri, { resultId: undefined, items });
  return { uri: doc.uri, push: undefined, pull };
}
