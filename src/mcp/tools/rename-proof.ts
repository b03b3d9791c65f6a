/**
 * The proof rename_apply gives before it writes (SPEC §7.3): every suspect (a file changed
 * in this session that mentions a renamed name) was open in the server with its disk
 * content when the written edit was computed (else WorkspaceDrift: it changed meanwhile),
 * and every occurrence of a renamed name in a
 * suspect that the edit leaves was asked of the server (`textDocument/definition`): none
 * lands on the renamed symbol. Otherwise `EditIncomplete` names the files, nothing written.
 */
import { DefinitionRequest } from "vscode-languageserver-protocol";
import { changedSinceComputed } from "../../apply/apply-errors.ts";
import { definitionTargets, landsOnEdit, occurrences, uncovered } from "../../apply/complete.ts";
import { incompleteError } from "../../apply/incomplete-errors.ts";
import type { LspRange } from "../../text/positions.ts";
import { answerToRead, lspToClient, offsetToLspPosition } from "../../text/positions.ts";
import { uriToPath } from "../../workspace/uri.ts";
import type { FileCall } from "./common.ts";
import type { RenameOnDisk } from "./rename-coherent.ts";
import { unloaded } from "./vouch.ts";

/** Occurrences asked of the server at most; past that the rename is refused unchecked. */
export const MAX_CHECKED_OCCURRENCES = 128;

interface Occurrence {
  abs: string;
  uri: string;
  range: LspRange;
}

/** The edited ranges by file. */
function editedRanges(rename: RenameOnDisk): Map<string, LspRange[]> {
  const edited = new Map<string, LspRange[]>();
  for (const f of rename.files) {
    const abs = uriToPath(f.uri);
    if (abs !== null) edited.set(abs, [...(edited.get(abs) ?? []), ...f.edits.map((e) => e.range)]);
  }
  return edited;
}

/** Occurrences of the names in the suspects' open documents that no edit touches. */
function leftOccurrences(call: FileCall, rename: RenameOnDisk, edited: Map<string, LspRange[]>) {
  const out: Occurrence[] = [];
  const enc = call.session.process.encoding;
  for (const abs of rename.suspects) {
    const doc = call.session.documents.byPath(abs);
    if (doc === undefined) continue; // gone from the disk (notLoaded vouched for it)
    const found: LspRange[] = [];
    for (const name of rename.names) {
      for (const at of occurrences(doc.text, name)) {
        const start = offsetToLspPosition(doc.index, at, enc);
        const end = offsetToLspPosition(doc.index, at + name.length, enc);
        found.push({ start, end });
      }
    }
    for (const range of uncovered(found, edited.get(abs) ?? []))
      out.push({ abs, uri: doc.uri, range });
  }
  return out;
}

export async function proveRenameComplete(call: FileCall, rename: RenameOnDisk): Promise<void> {
  const { session } = call;
  // loaded before the last computation, and not as they are now: they changed meanwhile
  const missing = unloaded(session, rename.suspects);
  if (missing.length > 0) {
    throw changedSinceComputed(
      missing.map((abs) => session.workspace.display(abs)).sort(),
      "files changed while the rename was computed; call rename_apply again",
    );
  }
  const edited = editedRanges(rename);
  const left = leftOccurrences(call, rename, edited);
  if (left.length === 0) return;
  const files = left.map((o) => o.abs);
  if (left.length > MAX_CHECKED_OCCURRENCES) {
    throw incompleteError("unchecked", files, {
      detail: `${left.length} occurrences outside the edit, over ${MAX_CHECKED_OCCURRENCES}`,
    });
  }
  if (!session.offers("definitionProvider", "textDocument/definition")) {
    throw incompleteError("unchecked", files, { detail: "the server offers no definition" });
  }
  const wrong: Occurrence[] = [];
  for (const o of left) {
    const answer = await session.request(
      DefinitionRequest.type,
      { textDocument: { uri: o.uri }, position: o.range.start },
      call.wait,
    );
    // its answer's lines, compared with the edits' (the lines it reads, SPEC §5)
    const targets = definitionTargets(answer).map((t) => {
      const abs = uriToPath(t.uri);
      const index = abs === null ? undefined : session.documents.byPath(abs)?.index;
      const { start, end } = t.range;
      const enc = session.process.encoding;
      return {
        abs,
        range: index
          ? { start: answerToRead(index, start, enc), end: answerToRead(index, end, enc) }
          : t.range,
      };
    });
    if (landsOnEdit(targets, edited)) wrong.push(o);
  }
  if (wrong.length === 0) return;
  const unit = session.bridge.column_unit;
  const enc = session.process.encoding;
  throw incompleteError(
    "left_out",
    wrong.map((o) => o.abs),
    {
      occurrences: wrong.map((o) => {
        const doc = session.documents.byPath(o.abs);
        const p = doc ? lspToClient(doc.index, o.range.start, enc, unit) : undefined;
        return {
          file: session.workspace.display(o.abs),
          line: p?.line ?? o.range.start.line + 1,
          column: p?.column ?? o.range.start.character + 1,
        };
      }),
    },
  );
}
