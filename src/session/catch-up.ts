/**
 * The server catches up before it answers (SPEC §5.3): before a call the disk is followed
 * (documents.ts `sync`) and a server that publishes per version has published for what
 * changed; the document a call is about is refreshed as the server needs.
 */
import type { Role } from "../config/types.ts";
import { offersPull, settlePush } from "./diagnostics-settle.ts";
import type { OpenDocument } from "./documents.ts";
import type { Session, WaitContext } from "./session.ts";
import type { Refresh } from "./settle/rule.ts";

/**
 * How the document a call is about is brought up to a workspace that changed around it
 * (SPEC §5.3). A pulled server answers from its own state. A push server may not rebuild,
 * nor publish, for a new version of unchanged text, so for diagnostics, and for every call
 * to a server that registered no file watchers (it was not told what changed), the document
 * is opened afresh. A server whose publishes carry no version may skip the publish after a
 * change of the document's own text too: its diagnostics always come from an opening.
 */
export function documentRefresh(session: Session, role: Role): Refresh {
  return session.settle.refresh(offersPull(session), role, session.disk.watching());
}

/**
 * Before a call (SPEC §5): everything changed on disk reaches the server, and a server
 * that publishes per version has published for what changed (its index caught up).
 */
export async function catchUp(session: Session, wait: WaitContext): Promise<void> {
  const before = session.documents.generation;
  const { sent, opened } = session.documents.sync();
  if (sent.length > 0 || opened.length > 0) await awaitPublishes(session, sent, wait, opened);
  // a server that says when it is quiescent says it in the turn that handled the change:
  // once the barrier is answered, its status is about the change (SPEC §6)
  if (session.documents.generation !== before && session.server.ready.quiescent) {
    await session.barrier(wait.signal);
  }
}

/**
 * After documents changed (SPEC §5.3): a server that publishes per version (and is not
 * pulled) has published for the new versions before the call goes on — for documents it
 * has published for before in this life, and for files opened because they changed once it
 * has published at all, so a server that never publishes is never waited for. clangd
 * updates its index from the rebuilt file in the same step.
 */
export async function awaitPublishes(
  session: Session,
  sent: OpenDocument[],
  wait: WaitContext,
  opened: OpenDocument[] = [],
): Promise<void> {
  if (!session.settle.perVersion(offersPull(session))) return;
  const publishes = session.diagnostics.seq > 0;
  const awaited = [
    ...sent.filter((doc) => session.diagnostics.push(doc.uri) !== undefined),
    ...(publishes ? opened : []),
  ];
  for (const doc of awaited) {
    if (session.documents.get(doc.uri) === doc) await settlePush(session, doc, wait);
  }
}

/**
 * Documents the bridge opened or changed so the server loads them (SPEC §7.3): before an
 * edit is computed on them, a server that publishes per version (and is not pulled) has
 * published for each — also for one it never published for, once it published for any in
 * this life (clangd indexes a file it opened in that step; a server that never publishes
 * is never waited for); a quiescent server is quiescent again. Other servers read their
 * documents in order with the requests that follow.
 */
export async function awaitLoaded(
  session: Session,
  docs: OpenDocument[],
  wait: WaitContext,
): Promise<void> {
  const first = docs[0];
  if (first === undefined || offersPull(session)) return;
  // a server that says when it is quiescent says it in the turn that handled the change
  if (session.server.ready.quiescent) await session.barrier(wait.signal);
  const loaded = session.settle.loaded(session.diagnostics.seq > 0);
  if (loaded === "first") await settlePush(session, first, wait);
  if (loaded !== "each") return;
  for (const doc of docs) {
    if (session.documents.get(doc.uri) === doc) await settlePush(session, doc, wait);
  }
}
