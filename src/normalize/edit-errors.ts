/**
 * What a server's WorkspaceEdit is refused for (SPEC §4.3, §7.4), built in one place: a
 * file operation (`ResourceOperationRejected`), an edit that is no plain text edit, and an
 * edit of a document that is no file (`EditInvalid`). Nothing was changed.
 */
import { BridgeError } from "../errors.ts";

/** `kind`: create, rename or delete. */
export function resourceRejected(kind: string, uri: string): BridgeError {
  return new BridgeError(
    "ResourceOperationRejected",
    `the edit wants to ${kind} ${uri}; file create/rename/delete operations are refused`,
    {
      hint: "theodolite only applies text edits to existing files; do the file operation yourself",
      details: { kind, uri },
    },
  );
}

/** An edit theodolite cannot apply as plain text (`message`: what is wrong with it). */
export function unappliableEdit(message: string, uri: string): BridgeError {
  return new BridgeError("EditInvalid", message, {
    hint: "the server returned an edit theodolite cannot apply as plain text; nothing was changed",
    details: { uri },
  });
}

/** An edit of a document that is no file: not a target the applier can check (SPEC §7.4). */
export function nonFileTarget(uri: string): BridgeError {
  return new BridgeError("EditInvalid", `the edit changes ${uri}, which is not a file`, {
    hint: "edits may only change existing regular UTF-8 files inside the workspace; nothing was changed",
    details: { uri },
  });
}
