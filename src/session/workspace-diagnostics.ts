/**
 * Workspace-wide diagnostics that are current (SPEC §6): every file the server reported on
 * and every open document, brought to the disk as it is now: by a workspace pull, by a run
 * begun after the last change, or else each file settled as `diagnostics {file}` does, at
 * most max_open_documents of them. Files that no longer exist are dropped.
 */
import { type Diagnostic, WorkspaceDiagnosticRequest } from "vscode-languageserver-protocol";
import { FILES_AT_ONCE, sideBySide } from "../side-by-side.ts";
import type { WorkspaceText } from "../workspace/confined.ts";
import { currentIdentity } from "../workspace/identity.ts";
import { workspaceRelative } from "../workspace/paths.ts";
import { uriToPath } from "../workspace/uri.ts";
import { documentRefresh } from "./catch-up.ts";
import {
  type FileDiagnostics,
  fileDiagnostics,
  offersPull,
  offersWorkspacePull,
  pullDocument,
  settleRuns,
} from "./diagnostics-settle.ts";
import type { Session, WaitContext } from "./session.ts";

/** An open document a push server never published for in this session: not awaited. */
export const NOT_PUBLISHED =
  "the server has not published for this open document yet; ask for it with `file`";

/** The reason given for a file that a bound kept from being re-checked. */
export const NOT_RECHECKED =
  "not re-checked: more files than bridge.max_open_documents; ask for it with `file`";

function stored(session: Session, uri: string): FileDiagnostics {
  const { diagnostics } = session;
  return { uri, push: diagnostics.push(uri)?.items, pull: diagnostics.pull(uri)?.items };
}

/** A path that names nothing any more (not merely a file the bridge may not read). */
const vanished = (abs: string): boolean => currentIdentity(abs) === null;

/** Every file reported on and every open document, sorted; `earlier`: earlier lives' too. */
function reportedOrOpen(session: Session, earlier = false): string[] {
  const { diagnostics, documents } = session;
  const before = earlier ? diagnostics.earlierUris() : [];
  return [...new Set([...diagnostics.uris(), ...documents.uris(), ...before])].sort();
}

/** The server's workspace pull report: the files it reports in full. */
export async function workspacePull(
  session: Session,
  wait: WaitContext,
): Promise<{ uri: string; resultId: string | undefined; items: Diagnostic[] }[]> {
  const report = await session.request(
    WorkspaceDiagnosticRequest.type,
    { previousResultIds: [] },
    wait,
  );
  return (report?.items ?? []).flatMap((item) =>
    item.kind === "full"
      ? [{ uri: item.uri, resultId: item.resultId, items: item.items ?? [] }]
      : [],
  );
}

export async function workspaceDiagnostics(
  session: Session,
  wait: WaitContext,
): Promise<FileDiagnostics[]> {
  const { diagnostics } = session;
  // whatever the server published before this call is in the store first
  await session.barrier(wait.signal);
  if (offersWorkspacePull(session)) {
    for (const item of await workspacePull(session, wait)) {
      diagnostics.setPull(item.uri, { resultId: item.resultId, items: item.items });
    }
  }
  const byRuns = session.runs !== null && session.settle.runs !== "ignored";
  if (offersWorkspacePull(session) || byRuns) {
    await settleRuns(session, wait);
    if (session.settle.workspaceQuiescence) {
      await session.waitUntil(
        () => (session.driver.readiness.status?.quiescent === true ? true : undefined),
        "quiescence",
        wait.signal,
      );
    }
    // a run-based server's own pulled diagnostics are not from the run: each listed file is
    // asked, pulled before or not
    const repull = byRuns && offersPull(session) && !offersWorkspacePull(session);
    const uris = repull ? reportedOrOpen(session) : [...diagnostics.uris()];
    const out: (FileDiagnostics | string)[] = [];
    let pulled = 0;
    for (const uri of uris) {
      const abs = uriToPath(uri);
      if (abs !== null && vanished(abs)) diagnostics.forget(uri);
      else if (!repull || abs === null || workspaceRelative(session.workspace, abs) === null)
        out.push(stored(session, uri)); // as reported: nothing to re-ask outside the root
      else if (pulled >= session.bridge.max_open_documents) {
        out.push({ ...stored(session, uri), unsettled: NOT_RECHECKED });
      } else {
        pulled += 1;
        out.push(uri);
      }
    }
    return sideBySide(out, FILES_AT_ONCE, async (item) => {
      if (typeof item !== "string") return item;
      await pullDocument(session, item, wait);
      return stored(session, item);
    });
  }
  return recheckEach(session, wait);
}

/** Every reported file and open document synced and settled, within the open-document bound. */
async function recheckEach(session: Session, wait: WaitContext): Promise<FileDiagnostics[]> {
  const { diagnostics, documents } = session;
  const uris = reportedOrOpen(session, true);
  const earlierOnly = new Set(diagnostics.earlierUris());
  const refresh = documentRefresh(session, "diagnostics");
  const awaitsPush = session.settle.skipsUnpublished(offersPull(session));
  const out: (FileDiagnostics | WorkspaceText)[] = [];
  let checked = 0;
  for (const uri of uris) {
    const abs = uriToPath(uri);
    const content = abs === null ? undefined : session.workspace.tryRead(abs);
    if (abs !== null && content === undefined && vanished(abs)) {
      diagnostics.forget(uri);
    } else if (content === undefined) {
      // a non-file URI, or outside the root: as reported (in this life; else nothing to say)
      if (!earlierOnly.has(uri)) out.push(stored(session, uri));
    } else if (checked >= session.bridge.max_open_documents) {
      out.push({ ...stored(session, uri), unsettled: NOT_RECHECKED });
    } else if (awaitsPush && !diagnostics.reportedEver(uri)) {
      out.push({ ...stored(session, uri), unsettled: NOT_PUBLISHED });
    } else {
      checked += 1;
      out.push(content);
    }
  }
  // the files to check, side by side; the rest as decided above
  return sideBySide(out, FILES_AT_ONCE, async (item) => {
    if ("uri" in item) return item;
    const doc = await documents.target(item, refresh, wait.signal);
    return fileDiagnostics(session, doc, wait);
  });
}
