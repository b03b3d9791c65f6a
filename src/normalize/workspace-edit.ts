/**
 * WorkspaceEdit → per-file text edits (rename_preview/rename_apply, code_action_apply;
 * SPEC §4.3, §7.4). File create/rename/delete operations are refused everywhere.
 */

import type { TextEdit, WorkspaceEdit } from "vscode-languageserver-protocol";
import { uriToPath } from "../workspace/uri.ts";
import { nonFileTarget, resourceRejected, unappliableEdit } from "./edit-errors.ts";
import { compareRange, compareStrings, compareTarget } from "./order.ts";
import { isLspRange } from "./range-converter.ts";
import type { NormalizeContext, Range } from "./types.ts";

export interface FileEdits {
  uri: string;
  edits: TextEdit[];
}

/** TextEdit or AnnotatedTextEdit (the annotation is dropped); a SnippetTextEdit is refused. */
function toTextEdit(e: unknown, uri: string): TextEdit {
  if (typeof e !== "object" || e === null) throw unappliableEdit("malformed text edit", uri);
  const edit = e as { range?: unknown; newText?: unknown; snippet?: unknown };
  if (edit.snippet !== undefined) {
    throw unappliableEdit("snippet edits are interactive and cannot be applied headless", uri);
  }
  if (!isLspRange(edit.range) || typeof edit.newText !== "string") {
    throw unappliableEdit("text edit without a range or newText", uri);
  }
  return { range: edit.range, newText: edit.newText };
}

/**
 * All text edits of a WorkspaceEdit grouped by document. `documentChanges` is used when
 * present (LSP prefers it), else `changes`. The same document appearing twice is merged
 * in order (the applier rejects overlapping spans, SPEC §7.4); documents with no edits are
 * dropped. Sorted by uri.
 */
export function flattenWorkspaceEdit(edit: WorkspaceEdit | null | undefined): FileEdits[] {
  if (edit === null || edit === undefined) return [];
  const byUri = new Map<string, TextEdit[]>();
  const push = (uri: string, edits: unknown) => {
    if (!Array.isArray(edits)) throw unappliableEdit("document edits are not a list", uri);
    const list = byUri.get(uri) ?? [];
    for (const e of edits) list.push(toTextEdit(e, uri));
    byUri.set(uri, list);
  };
  if (Array.isArray(edit.documentChanges)) {
    // Refuse before collecting anything: a resource operation anywhere rejects the whole edit.
    for (const change of edit.documentChanges as unknown[]) {
      if (typeof change !== "object" || change === null)
        throw unappliableEdit("malformed change", "");
      const c = change as { kind?: unknown; uri?: unknown; oldUri?: unknown };
      if (typeof c.kind === "string") {
        const uri =
          typeof c.uri === "string" ? c.uri : typeof c.oldUri === "string" ? c.oldUri : "";
        throw resourceRejected(c.kind, uri);
      }
    }
    for (const change of edit.documentChanges as unknown[]) {
      const c = change as { textDocument?: { uri?: unknown }; edits?: unknown };
      const uri = c.textDocument?.uri;
      if (typeof uri !== "string") throw unappliableEdit("text document edit without a uri", "");
      push(uri, c.edits);
    }
  } else if (typeof edit.changes === "object" && edit.changes !== null) {
    for (const [uri, edits] of Object.entries(edit.changes)) push(uri, edits);
  }
  return [...byUri.entries()]
    .filter(([, edits]) => edits.length > 0)
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([uri, edits]) => ({ uri, edits }));
}

export interface NormalizedFileEdits {
  file: string;
  edits: (Range & { new_text: string })[];
}

/**
 * Per-file edits in client positions, canonical order (file, then position). Edits at the
 * same position keep their server order (a stable sort), since LSP applies inserts at one
 * position in array order. Files outside the workspace keep their absolute path.
 */
export function normalizeFileEdits(
  files: FileEdits[],
  ctx: NormalizeContext,
): NormalizedFileEdits[] {
  // keyed by the displayed file, so two spellings of one document's URI stay one entry
  const byFile = new Map<string, NormalizedFileEdits["edits"]>();
  for (const { uri, edits } of files) {
    const target = uriToPath(uri) === null ? undefined : ctx.toTarget(uri);
    if (target === undefined || !("file" in target)) throw nonFileTarget(uri);
    const list = byFile.get(target.file) ?? [];
    for (const e of edits) list.push({ ...ctx.toRange(uri, e.range), new_text: e.newText });
    byFile.set(target.file, list);
  }
  return [...byFile.entries()]
    .sort(([a], [b]) => compareTarget({ file: a }, { file: b }))
    .map(([file, edits]) => ({ file, edits: edits.sort(compareRange) }));
}
