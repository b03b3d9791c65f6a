/**
 * formatting_apply (SPEC §7.3): apply class only. Takes a file (and optionally formatting's
 * `edit_set`: then nothing but that edit set is written), formats the whole file as it is
 * on disk, refuses edits that change more than layout (apply/format-rule.ts), and
 * writes through the one applier (SPEC §7.4): proven against the current text, journaled.
 */

import { notPreviewed } from "../../apply/edit-set-errors.ts";
import { notLayoutOnly } from "../../apply/format-rule.ts";
import { echoText } from "../conventions.ts";
import { defineTool, measureAnswer, WRITES_FILES } from "../tool.ts";
import { withFile } from "./common.ts";
import {
  computeFormatting,
  formattingAnswer,
  formattingApplyInput,
  formattingApplyOutput,
} from "./formatting-compute.ts";
import { admitAndWrite } from "./gated-write.ts";
import { editSetMalformed } from "./tool-errors.ts";

/** An `edit_set` is a SHA-256 in hex, as formatting answers it. */
function checkEditSet(editSet: string): void {
  if (/^[0-9a-f]{64}$/.test(editSet)) return;
  throw editSetMalformed(echoText(editSet));
}

export const formattingApplyTool = defineTool({
  name: "formatting_apply",
  title: "Apply formatting",
  description:
    "Format the whole `file`; written if only white space changes (and matches `edit_set`).",
  input: formattingApplyInput,
  output: formattingApplyOutput,
  annotations: WRITES_FILES,
  toolClass: "apply",
  handler: async (args, ctx) => {
    const { bridge } = ctx;
    const b = bridge.config.bridge;
    if (args.edit_set !== undefined) checkEditSet(args.edit_set);
    return withFile(ctx, args, "semantics", async (call) => {
      // the call's document is synced with the disk (withFile): formatted as it is there
      const f = await computeFormatting(ctx, call, args);
      if (args.edit_set !== undefined && args.edit_set !== f.editSet) {
        throw notPreviewed(args.edit_set, f.editSet, "formatting", "formatting");
      }
      if (f.broken !== undefined) throw notLayoutOnly(call.rel, f.text, f.broken);
      const answer = formattingAnswer(call, f, true);
      const json = measureAnswer(
        answer,
        b,
        "nothing was written: formatting_apply answers with every edit, so a formatting this large needs a larger bridge.max_result_bytes",
      );
      // the server formatted the text the disk held when the target was hashed, or drift
      const stale = f.planned.targets.filter((t) => t.sha256 !== call.doc.sha256);
      await admitAndWrite(ctx, call, "formatting_apply", f.planned, stale);
      return { ...answer, json };
    });
  },
});
