/**
 * formatting (SPEC §4.1, §7.3): the edits the server's formatter would make to the file (or
 * its lines `start_line`..`end_line`), whether they change only layout, and their digest
 * (`edit_set`) for formatting_apply; never written.
 */
import { defineTool, READ_ONLY } from "../tool.ts";
import { withFile } from "./common.ts";
import {
  computeFormatting,
  formattingAnswer,
  formattingInput,
  formattingOutput,
} from "./formatting-compute.ts";

export const formattingTool = defineTool({
  name: "formatting",
  title: "Formatting",
  description: "Formatting edits for `file` or lines `start_line`..`end_line`; writes nothing.",
  input: formattingInput,
  output: formattingOutput,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) =>
    withFile(ctx, args, "semantics", async (call) =>
      formattingAnswer(call, await computeFormatting(ctx, call, args), false),
    ),
});
