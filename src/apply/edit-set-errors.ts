/**
 * The refusals of an edit set's rules (SPEC §7.3, §7.4), built in one place: an edit that
 * does not fit the file as read (validate.ts), a renamed site that is no rename
 * (rename-rule.ts), a formatting that changes more than layout or mixes line breaks
 * (format-rule.ts), an edit set other than the one previewed. All are `EditInvalid`, and
 * nothing was written.
 */
import { BridgeError } from "../errors.ts";

/** An edit that does not fit the file as read (validate.ts). */
export function editInvalid(file: string, index: number | null, reason: string): BridgeError {
  return new BridgeError("EditInvalid", `edit set rejected: ${file}: ${reason}`, {
    hint: "the language server produced an edit that does not fit the current file; request the action or rename again",
    details: { file, index, reason },
  });
}

/** A text an error repeats, bounded. */
function shown(text: string): string {
  return text.length > 64 ? `${text.slice(0, 64)}…` : text;
}

/** Where a refused site is: its file, edit index and 1-based line and column (code points). */
export interface SitePlace {
  file: string;
  index: number;
  line: number;
  column: number;
}

/** The refusal of a rename whose site is no rename of `oldName` to `newName`. */
export function siteRefused(
  verdict: "other_text" | "not_a_rename",
  at: SitePlace,
  replaced: string,
  written: string,
  oldName: string,
  newName: string,
): BridgeError {
  const where = `${at.file}:${at.line}:${at.column}`;
  const base = { ...at, replaced: shown(replaced), expected: oldName };
  if (verdict === "other_text") {
    return new BridgeError(
      "EditInvalid",
      `edit set rejected: ${where}: the rename replaces ${JSON.stringify(shown(replaced))} there, not the renamed name ${JSON.stringify(oldName)}`,
      {
        hint: "nothing was written; the server's positions do not match the file's text (its line model or a stale copy); rename again, or check the server's `line_terminators`",
        details: base,
      },
    );
  }
  return new BridgeError(
    "EditInvalid",
    `edit set rejected: ${where}: the rename writes ${JSON.stringify(shown(written))} there, which is no rename of ${JSON.stringify(oldName)} to ${JSON.stringify(newName)}`,
    {
      hint: `nothing was written; a rename edit may write only the new name (or \`old as new\`, \`new as old\`, \`old: new\`, \`new: old\`); the server wrote other text`,
      details: { ...base, written: shown(written) },
    },
  );
}

/** A formatting that changes more than white space at `line`:`column` (format-rule.ts). */
export function layoutChanged(
  file: string,
  line: number,
  column: number,
  found: string,
  written: string,
): BridgeError {
  return new BridgeError(
    "EditInvalid",
    `edit set rejected: ${file}:${line}:${column}: the formatting changes more than white space (${JSON.stringify(found)} becomes ${JSON.stringify(written)})`,
    {
      hint: "nothing was written; formatting_apply writes only changes of white space and line breaks; this formatter also changes code (sorted imports, added commas or comments: apply formatting's edits by hand if they are wanted) or its positions do not match the file",
      details: {
        file,
        reason: "not_layout",
        line,
        column,
        found,
        written,
      },
    },
  );
}

/**
 * The refusal of a formatting that would leave `file`, whose line breaks are all `kind`,
 * with line breaks of two kinds even with its new text's breaks written as `kind`.
 */
export function mixedLineBreaks(file: string, kind: string): BridgeError {
  const name = JSON.stringify(kind);
  return new BridgeError(
    "EditInvalid",
    `edit set rejected: ${file}: the formatting would mix line breaks in a file whose line breaks are all ${name}`,
    {
      hint: "nothing was written; the formatter's edits split or remove line breaks in a way the file's own breaks cannot keep: apply them by hand, or convert the file's line breaks first",
      details: { file, reason: "line_breaks", line_break: kind },
    },
  );
}

/**
 * The refusal of an apply whose edit set is not the one the client previewed: a rename's
 * (rename_preview), or another edit's and the tool that previews it (formatting).
 */
export function notPreviewed(
  previewed: string,
  now: string,
  what = "rename",
  preview = "rename_preview",
): BridgeError {
  return new BridgeError(
    "EditInvalid",
    `edit set rejected: the ${what} computed now differs from the one ${preview} showed (edit_set)`,
    {
      hint: `nothing was written; files changed since the preview, or the server answers differently; call ${preview} again, review it, and pass its edit_set`,
      details: { reason: "not_previewed", previewed, edit_set: now },
    },
  );
}
