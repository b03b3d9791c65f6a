/**
 * Giving the server the files an apply vouches for (SPEC §7.3): files of its languages
 * that changed on disk in this session are opened (or updated) with their disk content, so
 * the server holds them as they are when the edit is computed, and it is waited for as
 * catch-up.ts `awaitLoaded` says. All at once or none: a file opened and then closed again
 * to make room would be unknown to the server once more (bridge.max_open_documents).
 */
import { type FileCopies, notLoaded } from "../../apply/complete.ts";
import { awaitLoaded } from "../../session/catch-up.ts";
import type { OpenDocument } from "../../session/documents.ts";
import type { Session } from "../../session/session.ts";
import type { FileCall } from "./common.ts";

/** The server's open copy and the disk's content of each path, now (one read each). */
export function copies(session: Session, paths: readonly string[]): FileCopies[] {
  return paths.map((abs) => ({
    abs,
    server: session.documents.byPath(abs)?.sha256,
    disk: session.workspace.tryRead(abs)?.sha256,
  }));
}

/** The paths whose disk content the server does not hold open now. */
export function unloaded(session: Session, paths: readonly string[]): string[] {
  return notLoaded(copies(session, paths));
}

/** Whether `paths` fit in the open-document bound together. */
export function fits(session: Session, paths: Iterable<string>): boolean {
  return new Set(paths).size <= session.bridge.max_open_documents;
}

/**
 * Each readable path's disk content made the server's copy, a file at a time (the bridge
 * reads its input between two, SPEC §8.2); the documents whose content was sent.
 */
export async function load(session: Session, paths: Iterable<string>): Promise<OpenDocument[]> {
  const sent: OpenDocument[] = [];
  for (const abs of paths) {
    // gone or unreadable: nothing of it to edit (a target is refused when the edit is planned)
    const content = session.workspace.tryRead(abs);
    if (content === undefined) continue;
    const result = session.documents.write(content);
    if (result.sent !== "none") sent.push(result.doc);
    await session.workspace.turns.next();
  }
  return sent;
}

/** What a code_actions listing records for its handles (SPEC §7.3). */
export interface ListingMark {
  /** the record's mark: a file changed after it changed after the listing */
  mark: number;
  /** why the record of changes is not whole, or null */
  untracked: string | null;
}

/**
 * Before code_actions computes edits it hands out as handles: every file changed in this
 * session that the server does not hold as it is gets opened, when they fit beside the
 * call's own file; else they stay as they are and the handles say so at apply time.
 */
export async function loadChangedForListing(call: FileCall): Promise<ListingMark> {
  const { session } = call;
  const mark = session.changedFiles.mark;
  const untracked = session.disk.untracked();
  const missing = unloaded(session, session.changedFiles.since(0));
  if (untracked === null && missing.length > 0 && fits(session, [call.doc.abs, ...missing])) {
    await awaitLoaded(session, await load(session, missing), call.wait);
  }
  return { mark, untracked };
}
