/** rename_preview (SPEC §4.1, §7.3): the rename edit set, computed and shown, never written. */
import { defineTool, READ_ONLY } from "../tool.ts";
import { withFile } from "./common.ts";
import { COMMON_ERRORS, POSITION_CONVENTION } from "./location-tool.ts";
import { computeRename, renameInput, renameOutput, renameResult } from "./rename-compute.ts";

export const renamePreviewTool = defineTool({
  name: "rename_preview",
  title: "Preview a rename",
  description:
    "Compute the edits that renaming the symbol at the position to `new_name` would make, " +
    "without writing anything: {applied: false, new_name, changes: [{file, edits: [{line, " +
    "column, end_line, end_column, new_text}]}]} in canonical order. Uses prepareRename where " +
    `the server offers it. ${POSITION_CONVENTION} Errors: ${COMMON_ERRORS}, ` +
    "ResourceOperationRejected (the rename would create, rename or delete files).",
  input: renameInput,
  output: renameOutput,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) =>
    withFile(ctx, args, "semantics", async (call) => {
      const files = await computeRename(ctx, call, args);
      const result = renameResult(call, files, args.new_name, false);
      return { result, count: files.reduce((n, f) => n + f.edits.length, 0) };
    }),
});
