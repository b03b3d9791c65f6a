/**
 * rename_preview (SPEC §4.1, §7.3): the rename edit set, computed, checked against the files
 * as rename_apply would (every edit a rename, every target writable), and shown with its
 * digest (`edit_set`); never written.
 */
import { defineTool, READ_ONLY } from "../tool.ts";
import { withFile } from "./common.ts";
import {
  computeRename,
  plannedRename,
  renameAnswer,
  renameInput,
  renameOutput,
} from "./rename-compute.ts";

export const renamePreviewTool = defineTool({
  name: "rename_preview",
  title: "Preview a rename",
  description:
    "Edits per file and `edit_set` of renaming the symbol at a position to `new_name`; writes nothing.",
  input: renameInput,
  output: renameOutput,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) =>
    withFile(ctx, args, "semantics", async (call) => {
      const { files } = await computeRename(ctx, call, args);
      // every target read as it is on disk: shown only if rename_apply could write it
      const { editSet } = plannedRename(call, files, args.new_name);
      return await renameAnswer(call, files, args.new_name, false, editSet);
    }),
});
