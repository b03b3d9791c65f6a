/** rename_preview (SPEC §4.1, §7.3): the rename edit set, computed and shown, never written. */
import { defineTool, READ_ONLY } from "../tool.ts";
import { withFile } from "./common.ts";
import { computeRename, renameAnswer, renameInput, renameOutput } from "./rename-compute.ts";

export const renamePreviewTool = defineTool({
  name: "rename_preview",
  title: "Preview a rename",
  description:
    "The edits renaming the symbol at a position to `new_name` would make, per file; writes nothing.",
  input: renameInput,
  output: renameOutput,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) =>
    withFile(
      ctx,
      args,
      "semantics",
      async (call) =>
        await renameAnswer(
          call,
          (await computeRename(ctx, call, args)).files,
          args.new_name,
          false,
        ),
    ),
});
