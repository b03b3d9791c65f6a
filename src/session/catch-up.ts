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

/** How the call's document is brought up to a workspace that changed around it (SPEC §5.3). */
export function documentRefresh(session: Session, role: Role): Refresh {
  return session.settle.refresh(offersPull(session), role, session.disk.watching());
}

/** Before a call (SPEC §5): the disk reaches the server, and a per-version one published. */
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
 * After documents changed (SPEC §5.3): a per-version, unpulled server has published for
 * the new versions (files opened for it only once it publishes at all: a server that never
 * publishes is never waited for).
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
 * Documents opened so the server loads them (SPEC §7.3): before an edit is computed on them,
 * a per-version server has published as its settle rule's `loaded` says, a quiescent one is
 * quiescent again; others read them in order with the requests that follow.
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
