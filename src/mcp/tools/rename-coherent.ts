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
import { BridgeError } from "../../errors.ts";
import type { FileEdits } from "../../normalize/workspace-edit.ts";
import { awaitPublishes } from "../../session/catch-up.ts";
import type { OpenDocument } from "../../session/documents.ts";
import { uriToPath } from "../../workspace/uri.ts";
import type { PositionArgs } from "../conventions.ts";
import type { CallContext } from "../tool.ts";
import type { FileCall } from "./common.ts";
import { computeRename } from "./rename-compute.ts";

/** Computations before giving up on a workspace that keeps changing. */
const MAX_COMPUTATIONS = 3;

/**
 * The call's own file and every file the rename touches, open in the server at once: only
 * an open document is known to hold what the disk holds. More than the open-document bound
 * allows is refused before anything is sent (SPEC §5.3): closing a target to make room
 * would leave the server's copy of it unknown again.
 */
function checkRoom(call: FileCall, files: FileEdits[]): void {
  const paths = new Set([call.doc.abs]);
  for (const f of files) {
    const abs = uriToPath(f.uri);
    if (abs !== null) paths.add(abs); // a non-file target: refused when the edit is planned
  }
  const max = call.session.bridge.max_open_documents;
  if (paths.size <= max) return;
  throw new BridgeError(
    "EditInvalid",
    `rename_apply computes a rename with every file it edits open in the server, and the file it is called on: ${paths.size} files here, over bridge.max_open_documents = ${max}`,
    {
      hint: `nothing was written; rename_preview shows the edits; a rename this wide needs bridge.max_open_documents ≥ ${paths.size}`,
      details: { files: paths.size, max_open_documents: max },
    },
  );
}

/** Every target file synced into the server; the documents whose content was sent. */
function syncTargets(call: FileCall, files: FileEdits[]): OpenDocument[] {
  checkRoom(call, files);
  const sent: OpenDocument[] = [];
  for (const f of files) {
    const abs = uriToPath(f.uri);
    if (abs === null) continue; // a non-file target: refused when the edit is planned
    // unreadable: planning the edit reports it (EditInvalid)
    const content = call.session.workspace.tryRead(abs);
    if (content === undefined) continue;
    const result = call.session.documents.write(content);
    if (result.sent !== "none") sent.push(result.doc);
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
  let files = await computeRename(ctx, call, args);
  for (let computed = 1; ; computed++) {
    const sent = syncTargets(call, files);
    // every target was already the server's open copy of the disk: computed on the files
    if (sent.length === 0) return files;
    if (computed >= MAX_COMPUTATIONS) {
      throw driftError(
        sent.map((d) => call.session.workspace.display(d.abs)).sort(),
        "the files kept changing while the rename was computed; call rename_apply again",
      );
    }
    await awaitPublishes(call.session, sent, call.wait);
    const again = await computeRename(ctx, call, args);
    if (same(again, files)) return again;
    files = again;
  }
}
