/**
 * The rename computation shared by rename_preview and rename_apply (SPEC
 * §7.3): prepareRename where the server offers it, then rename, flattened
 * into per-file text edits. Resource operations are rejected (SPEC §7.4).
 */

import { PrepareRenameRequest, RenameRequest } from "vscode-languageserver-protocol";
import { z } from "zod";
import { wordAt } from "../../apply/complete.ts";
import { type EditTargets, editTargets } from "../../apply/handle-plan.ts";
import { editSetDigest } from "../../apply/rename-rule.ts";
import { checkRenameEdits, inReadLines } from "../../apply/validate.ts";
import {
  type FileEdits,
  flattenWorkspaceEdit,
  normalizeFileEdits,
} from "../../normalize/workspace-edit.ts";
import { renameMessage } from "../../text/line-rule.ts";
import { clientOffsetFloor, type LspPosition, lspPositionToOffset } from "../../text/positions.ts";
import { TimeSlices } from "../../time-slice.ts";
import { uriToPath } from "../../workspace/uri.ts";
import { type PositionArgs, positionShape } from "../conventions.ts";
import type { CallContext, ToolAnswer } from "../tool.ts";
import { type FileCall, sessionTextReader, unconvertedField, usesMarks } from "./common.ts";
import { type ResolvedPosition, resolvePosition } from "./position.ts";
import { nothingRenamable, renameMissesPosition } from "./rename-errors.ts";

export const renameInput = z
  .object({
    ...positionShape,
    // a name: letters, marks, ASCII digits, `_` and `$` — no text a rename could smuggle in
    new_name: z
      .string()
      .min(1)
      .max(256)
      .regex(/^[\w$\p{L}\p{M}]+$/u, "must be a name: letters, digits, _ or $"),
  })
  .strict();

/** rename_apply's arguments: the preview's, and the `edit_set` it answered (SPEC §7.3). */
export const renameApplyInput = renameInput
  .extend({
    edit_set: z
      .string()
      .regex(/^[0-9a-f]{64}$/, "must be the edit_set rename_preview answered")
      .optional(),
  })
  .strict();

export const renameOutput = z.object({
  applied: z.boolean(),
  new_name: z.string(),
  /** the digest of the edit set (SPEC §7.3): pass rename_preview's to rename_apply */
  edit_set: z.string(),
  changes: z.array(
    z.object({
      file: z.string(),
      edits: z.array(z.object({ new_text: z.string() })),
    }),
  ),
});

function offersPrepare(call: FileCall): boolean {
  const p = call.session.process.capabilities?.renameProvider;
  return typeof p === "object" && p !== null && p.prepareProvider === true;
}

/** A rename's flattened edits, and the server position it was asked at. */
export interface ComputedRename {
  files: FileEdits[];
  at: LspPosition;
}

export async function computeRename(
  ctx: CallContext,
  call: FileCall,
  args: PositionArgs & { new_name: string },
): Promise<ComputedRename> {
  call.session.requireCapability("renameProvider", "textDocument/rename");
  const pos = await resolvePosition(ctx, call, args);
  const at = { textDocument: { uri: call.doc.uri }, position: pos.lsp };
  if (offersPrepare(call)) {
    const prep = await call.session.request(PrepareRenameRequest.type, at, call.wait);
    if (prep === null || prep === undefined) {
      throw nothingRenamable(call.rel, pos.line, pos.column);
    }
  }
  const edit = await call.session.request(
    RenameRequest.type,
    { ...at, newName: args.new_name },
    call.wait,
  );
  const files = inServerReadLines(call, flattenWorkspaceEdit(edit));
  await checkSites(call, files, oldName(call, pos, files), args.new_name);
  // its files' tables, within the call's budget (SPEC §5.1), for renameAnswer
  await call.renameNorm.convert(() => normalizeFileEdits(files, call.renameNorm));
  return { files, at: pos.lsp };
}

/**
 * A rename's edits with every range in the lines the server reads: a server may count a
 * file's edits otherwise, by whether it is the file asked about (clangd: the others from
 * its index, in its compiler's lines; SPEC §5, text/line-rule.ts). Converted in the text
 * the server has; a file that cannot be read keeps them, and is refused when planned.
 */
function inServerReadLines(call: FileCall, files: FileEdits[]): FileEdits[] {
  const { session, doc } = call;
  const textOf = sessionTextReader(session);
  return files.map((f) => {
    const abs = uriToPath(f.uri);
    const text = abs === null ? undefined : textOf(abs);
    if (abs === null || text === undefined) return f;
    const models = session.linesFor(renameMessage(abs, doc.abs));
    const file = session.workspace.display(abs);
    const read = session.lines;
    const enc = session.process.encoding;
    return { ...f, edits: inReadLines(file, text, f.edits, models, read, enc) };
  });
}

/**
 * The name being renamed: the whole word at the position the client named, read in the
 * call's document (SPEC §7.3); where the position is on no word, what the edit there replaces.
 */
function oldName(call: FileCall, pos: ResolvedPosition, files: FileEdits[]): string | undefined {
  const { doc } = call;
  const offset = clientOffsetFloor(
    doc.index,
    pos.line,
    pos.column,
    call.session.bridge.column_unit,
  );
  const word = wordAt(doc.text, offset);
  if (word !== undefined) return word;
  const enc = call.session.process.encoding;
  for (const f of files) {
    if (uriToPath(f.uri) !== doc.abs) continue;
    for (const e of f.edits) {
      const start = lspPositionToOffset(doc.index, e.range.start, enc);
      const end = lspPositionToOffset(doc.index, e.range.end, enc);
      if (start !== undefined && end !== undefined && start <= offset && offset <= end) {
        return doc.text.slice(start, end);
      }
    }
  }
  return undefined;
}

/**
 * Every edit replaces the old name (SPEC §7.3), in the text the server has: the open
 * document where the session holds one, else the file on disk (one that cannot be read is
 * refused when the edit is planned). Each file is read and its lines counted: an edit set
 * over hundreds of files goes in time slices of the workspace's turns (SPEC §8.2), so that
 * many renames at once leave the client's pings and other calls read between slices.
 */
async function checkSites(
  call: FileCall,
  files: FileEdits[],
  name: string | undefined,
  newName: string,
): Promise<void> {
  if (files.length === 0) return;
  if (name === undefined) {
    throw renameMissesPosition(call.rel);
  }
  const ws = call.session.workspace;
  const slices = new TimeSlices({ turn: () => ws.turns.next() });
  if (files.length > 1) await slices.turn();
  await slices.each(files.length, (i) => {
    const f = files[i] as FileEdits;
    const abs = uriToPath(f.uri);
    if (abs === null) return;
    const text = call.session.documents.byPath(abs)?.text ?? ws.tryRead(abs)?.text;
    if (text !== undefined) {
      const { lines: lineModel } = call.session;
      const { encoding } = call.session.process;
      checkRenameEdits(ws.display(abs), text, f.edits, encoding, lineModel, name, newName);
    }
  });
}

/**
 * A rename's edit set read against the disk: every target an existing regular UTF-8 file
 * inside the workspace and outside version-control internals (else `EditInvalid`, in
 * rename_preview as in rename_apply), and its digest (SPEC §7.3).
 */
export function plannedRename(
  call: FileCall,
  files: FileEdits[],
  newName: string,
): { planned: EditTargets; editSet: string } {
  const { session } = call;
  const serves = (rel: string) => session.serves(rel);
  const planned = editTargets(session.workspace, files, session.bridge.max_file_bytes, serves);
  const digestFiles = planned.files.map((f) => ({
    file: call.session.workspace.display(f.abs),
    sha256: planned.snapshots.get(f.abs)?.sha256 ?? "",
    edits: f.edits,
  }));
  return { planned, editSet: editSetDigest(newName, digestFiles) };
}

/**
 * A rename's answer, for rename_preview and rename_apply alike: `changes` in client
 * positions of the text the edits were computed on, counted in edits, and one `{file}`
 * per edit for ResultTooLarge's per-file summary (SPEC §4.4).
 */
export async function renameAnswer(
  call: FileCall,
  files: FileEdits[],
  newName: string,
  applied: boolean,
  editSet: string,
): Promise<ToolAnswer> {
  const changes = normalizeFileEdits(files, call.renameNorm);
  return {
    result: {
      applied,
      new_name: newName,
      edit_set: editSet,
      changes,
      ...unconvertedField(call.renameNorm.unconverted()),
      ...(await usesMarks(call.session, call.rel)),
    },
    count: changes.reduce((n, c) => n + c.edits.length, 0),
    summaryItems: changes.flatMap((c) => c.edits.map(() => ({ file: c.file }))),
  };
}
