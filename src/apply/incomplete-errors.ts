/**
 * The refusal of an apply that could not prove its edit set complete (SPEC §7.3), built
 * in one place: `EditIncomplete`, why (one reason of a closed set), what to do, and the
 * files the bridge could not vouch for. The decisions are complete.ts's.
 */
import { BridgeError } from "../errors.ts";

/** Files an error names, at most (the count is given too). */
const MAX_LISTED = 50;

/** Why an apply could not vouch for its edit set (SPEC §7.3). */
export type IncompleteReason =
  | "not_loaded"
  | "left_out"
  | "unchecked"
  | "changed_since_listing"
  | "untracked"
  | "outside_program";

const WHY: Record<IncompleteReason, string> = {
  not_loaded:
    "files changed in this session must be open in the server with their disk content, and they do not all fit in bridge.max_open_documents",
  left_out:
    "the server's own definition puts these occurrences at the renamed symbol, yet its rename leaves them",
  unchecked: "occurrences of the name outside the edit could not be checked with the server",
  changed_since_listing: "files changed after code_actions computed this edit",
  untracked: "the changes on disk since the server started are not all known",
  outside_program:
    "the file renamed from is not part of a whole program the server sees, so its rename sees only part of the uses",
};

const HINT: Record<IncompleteReason, string> = {
  not_loaded:
    "nothing was written; raise bridge.max_open_documents above the number of files named, or session_restart (a fresh server loads them)",
  left_out:
    "nothing was written; call rename_apply again if the server was still loading these files; a file its configuration leaves out of the project is never renamed by it (rename_preview shows its edits, the rest is by hand)",
  unchecked:
    "nothing was written; the server offers no definition to check them with, or there were too many; rename_preview shows its edits",
  changed_since_listing:
    "nothing was written; call code_actions again for a handle computed on the current files",
  untracked:
    "nothing was written; session_restart (a fresh server loads every file), and raise bridge.max_watches if directories go unwatched",
  outside_program:
    "nothing was written; put the file in the project (its tsconfig, pyright's include, the compile database), or rename by hand from rename_preview",
};

/** The refusal: nothing was written, and the files the bridge could not vouch for. */
export function incompleteError(
  reason: IncompleteReason,
  files: readonly string[],
  extra: { detail?: string; occurrences?: { file: string; line: number; column: number }[] } = {},
): BridgeError {
  const sorted = [...new Set(files)].sort();
  const listed = sorted.slice(0, MAX_LISTED);
  const more = sorted.length > listed.length ? ` (and ${sorted.length - listed.length} more)` : "";
  const what = extra.detail === undefined ? WHY[reason] : `${WHY[reason]}: ${extra.detail}`;
  const named = listed.length > 0 ? `: ${listed.join(", ")}${more}` : "";
  return new BridgeError(
    "EditIncomplete",
    `the edit set is not proven complete — ${what}${named}`,
    {
      hint: HINT[reason],
      details: {
        reason,
        files: listed,
        count: sorted.length,
        ...(extra.occurrences ? { occurrences: extra.occurrences.slice(0, MAX_LISTED) } : {}),
      },
    },
  );
}
