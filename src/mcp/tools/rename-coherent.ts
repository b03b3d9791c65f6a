/**
 * rename_apply's computation on the files as they are (SPEC §7.3, §5): the rename is
 * computed, every file it touches is then synced into the server (opened, or changed to
 * its disk content), and the rename computed again; two computations in a row that agree
 * are the answer. A server that answered from its own stale copy of a file it never had
 * open (a revert on disk behind its back) thus never gets a partial edit written: either
 * the second computation sees every file as it is, or the workspace kept changing and the
 * call is WorkspaceDrift.
 */
import { driftError } from "../../apply/apply-edits.ts";
import type { FileEdits } from "../../normalize/workspace-edit.ts";
import { awaitPublishes } from "../../session/catch-up.ts";
import type { OpenDocument } from "../../session/documents.ts";
import { readWorkspaceText } from "../../workspace/confined.ts";
import { displayPath } from "../../workspace/files.ts";
import { uriToPath } from "../../workspace/uri.ts";
import type { PositionArgs } from "../conventions.ts";
import type { CallContext } from "../tool.ts";
import type { FileCall } from "./common.ts";
import { computeRename } from "./rename-compute.ts";

/** Computations before giving up on a workspace that keeps changing. */
const MAX_COMPUTATIONS = 3;

/** Every target file synced into the server; the documents whose content was sent. */
function syncTargets(call: FileCall, files: FileEdits[], maxFileBytes: number): OpenDocument[] {
  const { session } = call;
  const root = session.workspace.root;
  // the open-document bound stays a bound: the call's own file keeps its place
  const room = Math.max(0, session.bridge.max_open_documents - 1);
  const sent: OpenDocument[] = [];
  for (const f of files.slice(0, room)) {
    const abs = uriToPath(f.uri);
    if (abs === null) continue; // a non-file target: refused when the edit is planned
    try {
      const result = session.documents.sync(readWorkspaceText(root, abs, maxFileBytes));
      if (result.sent !== "none") sent.push(result.doc);
    } catch {
      // unreadable: planning the edit reports it (EditInvalid)
    }
  }
  return sent;
}

function same(a: FileEdits[], b: FileEdits[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export async function computeRenameOnDisk(
  ctx: CallContext,
  call: FileCall,
  args: PositionArgs & { new_name: string },
): Promise<FileEdits[]> {
  const maxFileBytes = ctx.bridge.config.bridge.max_file_bytes;
  let files = await computeRename(ctx, call, args);
  for (let computed = 1; ; computed++) {
    const sent = syncTargets(call, files, maxFileBytes);
    // every target was already the server's open copy of the disk: computed on the files
    if (sent.length === 0) return files;
    if (computed >= MAX_COMPUTATIONS) {
      const root = call.session.workspace.root;
      throw driftError(
        sent.map((d) => displayPath(root, d.abs)).sort(),
        "the files kept changing while the rename was computed; call rename_apply again",
      );
    }
    await awaitPublishes(call.session, sent, call.wait);
    const again = await computeRename(ctx, call, args);
    if (same(again, files)) return again;
    files = again;
  }
}
