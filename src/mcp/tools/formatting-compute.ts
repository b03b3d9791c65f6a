/**
 * The formatting computation shared by formatting and formatting_apply (SPEC §4.1, §7.3):
 * textDocument/formatting, or rangeFormatting for `start_line`..`end_line` (formatting
 * alone), with the options the file's own indentation gives (text/indentation.ts). The edits are
 * the server's for the call's document, checked as a rename's in the file asked about (in
 * the lines it reads, SPEC §5), read against the disk as the apply would, judged layout-only
 * or not (apply/format-rule.ts) and digested into `edit_set`.
 */
import {
  DocumentFormattingRequest,
  DocumentRangeFormattingRequest,
  type FormattingOptions,
} from "vscode-languageserver-protocol";
import { z } from "zod";
import {
  FORMATTING_EDIT_SET,
  keptLineBreaks,
  type LayoutBreak,
  layoutBreak,
} from "../../apply/format-rule.ts";
import { type EditTargets, editTargets } from "../../apply/handle-plan.ts";
import { editSetDigest } from "../../apply/rename-rule.ts";
import { changingEdits, editedText, inReadLines } from "../../apply/validate.ts";
import {
  type FileEdits,
  flattenWorkspaceEdit,
  normalizeFileEdits,
} from "../../normalize/workspace-edit.ts";
import { indentationOf } from "../../text/indentation.ts";
import { fileShape } from "../conventions.ts";
import type { CallContext, ToolAnswer } from "../tool.ts";
import { type FileCall, sessionMarks, unconvertedField } from "./common.ts";
import { lineRange, lineRangeShape } from "./line-range.ts";

export const formattingInput = z.object({ ...fileShape, ...lineRangeShape }).strict();

/**
 * formatting_apply's arguments: the whole file's, and the `edit_set` formatting answered
 * (SPEC §7.3); its shape is checked by the handler (the tool list stays small, SPEC §4.1).
 */
export const formattingApplyInput = z
  .object({ ...fileShape, edit_set: z.string().optional() })
  .strict();

/** `changes` as rename_preview's: `[{file, edits: [{…Range, new_text}]}]` (SPEC §4.3) */
export const formattingOutput = z.object({
  edit_set: z.string(),
  layout_only: z.boolean(),
  changes: z.array(z.object({})),
});
/** formatting_apply writes only layout: `layout_only` would always be true */
export const formattingApplyOutput = formattingOutput.omit({ layout_only: true });

export type FormattingArgs = z.infer<typeof formattingInput>;

/** A formatting's edits, its targets read on disk, its digest, and where it is more than layout. */
export interface ComputedFormatting {
  files: FileEdits[];
  planned: EditTargets;
  editSet: string;
  /** the document's text the edits were computed on (the server's copy, synced to the disk) */
  text: string;
  broken: LayoutBreak | undefined;
}

export async function computeFormatting(
  ctx: CallContext,
  call: FileCall,
  args: FormattingArgs,
): Promise<ComputedFormatting> {
  const { session, doc } = call;
  const b = ctx.bridge.config.bridge;
  const options: FormattingOptions = { ...indentationOf(doc.text) };
  const textDocument = { uri: doc.uri };
  let raw: unknown;
  if (args.start_line !== undefined || args.end_line !== undefined) {
    session.requireCapability("documentRangeFormattingProvider", "textDocument/rangeFormatting");
    const range = lineRange(call, b.column_unit, args);
    raw = await session.request(
      DocumentRangeFormattingRequest.type,
      { textDocument, range, options },
      call.wait,
    );
  } else {
    session.requireCapability("documentFormattingProvider", "textDocument/formatting");
    raw = await session.request(
      DocumentFormattingRequest.type,
      { textDocument, options },
      call.wait,
    );
  }
  // the answer is untrusted (SPEC §8): a list of text edits, else EditInvalid
  const flat = flattenWorkspaceEdit({ changes: { [doc.uri]: (raw ?? []) as never } });
  const models = session.linesFor("rename");
  const { lines: lineModel } = session;
  const { encoding } = session.process;
  const read = flat.map((f) => ({
    ...f,
    edits: inReadLines(call.rel, doc.text, f.edits, models, lineModel, encoding),
  }));
  // one file, the call's: the text after its edits, written with the file's line breaks
  let after = doc.text;
  const changing = read
    .map((f) => {
      const kept = keptLineBreaks(call.rel, doc.text, f.edits, (edits) =>
        editedText(call.rel, doc.text, edits, encoding, [lineModel]),
      );
      after = kept.after;
      return {
        ...f,
        edits: changingEdits(call.rel, doc.text, kept.edits, encoding, [lineModel]),
      };
    })
    .filter((f) => f.edits.length > 0);
  // the target read as it is on disk: shown only if formatting_apply could write it
  const planned = editTargets(session.workspace, changing, b.max_file_bytes, (rel) =>
    session.serves(rel),
  );
  const editSet = editSetDigest(
    FORMATTING_EDIT_SET,
    planned.files.map((f) => ({
      file: session.workspace.display(f.abs),
      sha256: planned.snapshots.get(f.abs)?.sha256 ?? "",
      edits: f.edits,
    })),
  );
  await call.renameNorm.convert(() => normalizeFileEdits(changing, call.renameNorm));
  return {
    files: changing,
    planned,
    editSet,
    text: doc.text,
    broken: layoutBreak(doc.text, after),
  };
}

/**
 * formatting's answer (`applied` false: with `layout_only`) and formatting_apply's, in
 * client positions of the text formatted.
 */
export function formattingAnswer(
  call: FileCall,
  f: ComputedFormatting,
  applied: boolean,
): ToolAnswer {
  const layout = applied ? {} : { layout_only: f.broken === undefined };
  const changes = normalizeFileEdits(f.files, call.renameNorm);
  return {
    result: {
      edit_set: f.editSet,
      ...layout,
      changes,
      ...unconvertedField(call.renameNorm.unconverted()),
      ...sessionMarks(call.session, call.rel),
    },
    count: changes.reduce((n, c) => n + c.edits.length, 0),
    summaryItems: changes.flatMap((c) => c.edits.map(() => ({ file: c.file }))),
  };
}
