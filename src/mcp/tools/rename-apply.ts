/**
 * rename_apply (SPEC §7.3): apply class only. Takes the rename_preview
 * arguments (and optionally the preview's `edit_set`: then nothing but that edit set is
 * written), recomputes with every target and every changed file that mentions the name
 * synced into the server (rename-coherent.ts), proves the edit set complete
 * (rename-proof.ts), re-hashes every target between compute and write, and
 * writes all files or none (SPEC §7.4).
 */

import { notPreviewed } from "../../apply/edit-set-errors.ts";
import { incompleteError } from "../../apply/incomplete-errors.ts";
import { defineTool, measureAnswer, WRITES_FILES } from "../tool.ts";
import { withFile } from "./common.ts";
import { admitAndWrite } from "./gated-write.ts";
import { computeRenameOnDisk } from "./rename-coherent.ts";
import { plannedRename, renameAnswer, renameApplyInput, renameOutput } from "./rename-compute.ts";
import { proveRenameComplete } from "./rename-proof.ts";

/** The real path a target names (a link inside the root resolved), or the path itself. */
function realPathOf(ws: { resolve(file: string): { abs: string } }, abs: string): string {
  try {
    return ws.resolve(abs).abs;
  } catch {
    return abs;
  }
}

export const renameApplyTool = defineTool({
  name: "rename_apply",
  title: "Apply a rename",
  description:
    "Rename like rename_preview and write it, all files or none, proven complete; with " +
    "`edit_set`, only that edit set.",
  input: renameApplyInput,
  output: renameOutput,
  annotations: WRITES_FILES,
  toolClass: "apply",
  handler: async (args, ctx) => {
    const { bridge } = ctx;
    const b = bridge.config.bridge;
    return withFile(ctx, args, "semantics", async (call) => {
      // a file the server sees outside any whole program: its rename sees part of the uses
      const outside = call.session.program.outside(call.rel);
      if (outside !== null) {
        throw incompleteError("outside_program", [outside.file], { detail: outside.reason });
      }
      // computed with every target and suspect synced into the server (SPEC §5, §7.3)
      const rename = await computeRenameOnDisk(ctx, call, args);
      const { files } = rename;
      const { planned, editSet } = plannedRename(call, files, args.new_name);
      // what is written is what was previewed, when the client passes the preview's digest
      if (args.edit_set !== undefined && args.edit_set !== editSet) {
        throw notPreviewed(args.edit_set, editSet);
      }
      // no file it may not have loaded, no occurrence it would rename, left out (SPEC §7.3)
      await proveRenameComplete(call, rename);
      // The answer is measured before anything is written: a rename too large to report is
      // refused whole (SPEC §4.4), never written and then answered with an error. Positions
      // are those of the text the edits were computed on: after the write the files hold
      // the new text, where a non-ASCII prefix would shift columns.
      const answer = await renameAnswer(call, files, args.new_name, true, editSet);
      const json = measureAnswer(
        answer,
        b,
        "nothing was written: rename_apply answers with every edit, so a rename this large needs a larger bridge.max_result_bytes (details.by_file: where the edits are)",
      );
      // every target is open (rename-coherent.ts), under its real path (a server may name
      // it through a link); one that is not, or holds other content than the disk, means
      // the rename was computed on stale state
      const ws = call.session.workspace;
      const stale = planned.targets.filter(
        (t) => call.session.documents.byPath(realPathOf(ws, t.abs))?.sha256 !== t.sha256,
      );
      await admitAndWrite(ctx, call, "rename_apply", planned, stale);
      return { ...answer, json };
    });
  },
});
