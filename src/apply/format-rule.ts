/**
 * A formatting writes only layout (SPEC §7.3), pure: the text after a formatter's edits
 * holds the same characters as before, white space aside — a hostile or confused server
 * (one counting lines otherwise, one answering from a stale copy) cannot slip code into
 * a file through formatting_apply. Formatters that also reorder imports, add trailing
 * commas or comments are refused by it too (docs/LANGUAGE-SERVERS.md#formatting-changes-more-than-layout):
 * `formatting` shows them with `layout_only: false`. A file's one kind of line break stays
 * its only one (formatters write `\n` into CRLF files). The refusals are `EditInvalid`,
 * built in edit-set-errors.ts.
 */
import type { BridgeError } from "../errors.ts";
import { LineIndex } from "../text/line-index.ts";
import { measure } from "../text/positions.ts";
import { layoutChanged, mixedLineBreaks } from "./edit-set-errors.ts";

/** The label a formatting's `edit_set` digest carries in place of a rename's new name. */
export const FORMATTING_EDIT_SET = "(formatting)";

/** Where a formatted text first differs from the original beyond white space. */
export interface LayoutBreak {
  /** offset (UTF-16) of the first differing character in the original, or its end */
  offset: number;
  found: string;
  written: string;
}

/** White space as JavaScript's `\s` counts it: spaces, tabs, line breaks, NBSP, BOM. */
const SPACE = /\s/;

/** Where `after` differs from `before` other than in white space; undefined when nowhere. */
export function layoutBreak(before: string, after: string): LayoutBreak | undefined {
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < before.length && SPACE.test(before[i] as string)) i++;
    while (j < after.length && SPACE.test(after[j] as string)) j++;
    const done = i >= before.length || j >= after.length;
    if (done && i >= before.length && j >= after.length) return undefined;
    if (done || before[i] !== after[j]) {
      return { offset: i, found: before.slice(i, i + 32), written: after.slice(j, j + 32) };
    }
    i++;
    j++;
  }
}

/**
 * The refusal of a formatting whose edits change more than layout in `file`: where (1-based
 * line and column in code points, as the client counts lines), what was there and what the
 * edits write there instead.
 */
export function notLayoutOnly(file: string, text: string, at: LayoutBreak): BridgeError {
  const lines = new LineIndex(text);
  const line = lines.lineOf(at.offset);
  const column = measure(text.slice(lines.lineStart(line), at.offset), "utf-32") + 1;
  return layoutChanged(file, line + 1, column, at.found, at.written);
}

/** The line break a text uses, when it uses one kind only; "mixed"; undefined when none. */
export type LineBreaks = "\r\n" | "\n" | "\r" | "mixed" | undefined;

export function lineBreaks(text: string): LineBreaks {
  let kind: LineBreaks;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== "\r" && c !== "\n") continue;
    const here = c === "\r" && text[i + 1] === "\n" ? "\r\n" : c;
    if (here === "\r\n") i++;
    if (kind !== undefined && kind !== here) return "mixed";
    kind = here;
  }
  return kind;
}

const BREAK = /\r\n|\r|\n/;

/** The edits with every line break of their new text written as `br`. */
export function withLineBreaks<E extends { newText: string }>(
  edits: readonly E[],
  br: string,
): E[] {
  return edits.map((e) => ({ ...e, newText: e.newText.split(BREAK).join(br) }));
}

/**
 * A formatter's edits of `text` with its line breaks kept: where the text uses one kind
 * and the edits as the server wrote them would leave two, the breaks of their new text are
 * written as the text's; two kinds even then are `EditInvalid` (mixedLineBreaks).
 * `edited` is the text edits make of `text` (validated); `after` is what these edits make.
 */
export function keptLineBreaks<E extends { newText: string }>(
  file: string,
  text: string,
  edits: readonly E[],
  edited: (edits: readonly E[]) => string,
): { edits: readonly E[]; after: string } {
  const after = edited(edits);
  const kind = lineBreaks(text);
  if (kind === undefined || kind === "mixed" || lineBreaks(after) !== "mixed") {
    return { edits, after };
  }
  const fit = withLineBreaks(edits, kind);
  const again = edited(fit);
  if (lineBreaks(again) === "mixed") throw mixedLineBreaks(file, kind);
  return { edits: fit, after: again };
}
