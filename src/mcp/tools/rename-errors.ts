/**
 * What a rename is refused for by the tools (SPEC §4.3, §7.3), built in one place: a
 * position the server says cannot be renamed, edits that miss the position asked at, and
 * a rename too wide to compute with its files open. The edit set's own rules are
 * apply/edit-set-errors.ts's; nothing was written.
 */
import { BridgeError } from "../../errors.ts";

/** The server's prepareRename answered nothing at `line`:`column` of `file`. */
export function nothingRenamable(file: string, line: number, column: number): BridgeError {
  return new BridgeError(
    "InvalidArgument",
    "the server says nothing at this position can be renamed",
    {
      hint: "point at the symbol's name (use `symbol` to anchor on its text)",
      details: { file, line, column },
    },
  );
}

export function renameMissesPosition(file: string): BridgeError {
  return new BridgeError(
    "EditInvalid",
    "the rename's edits do not cover the position it was asked at",
    {
      hint: "point at the symbol's name (use `symbol` to anchor on its text); nothing was written",
      details: { file },
    },
  );
}

/** `files` to hold open (the targets and the call's own), over `max` (max_open_documents). */
export function renameTooWide(files: number, max: number): BridgeError {
  return new BridgeError(
    "EditInvalid",
    `rename_apply computes a rename with every file it edits open in the server, and the file it is called on: ${files} files here, over bridge.max_open_documents = ${max}`,
    {
      hint: `nothing was written; rename_preview shows the edits; a rename this wide needs bridge.max_open_documents ≥ ${files}`,
      details: { files, max_open_documents: max },
    },
  );
}
