/**
 * hover → `{text, range}` (SPEC §4.3). Every content form (MarkedString, MarkedString[],
 * MarkupContent) becomes plain text: parts joined by a blank line, markdown code-fence
 * lines dropped (their content kept), CRLF/CR → LF, trailing whitespace trimmed per line and
 * the whole text trimmed at both ends. No text → null.
 */

import type { Hover } from "vscode-languageserver-protocol";
import { isLspRange } from "./range-converter.ts";
import type { NormalizeContext, Range } from "./types.ts";

/** What may follow a fence: an info string such as `python` or `c++` (one class: linear). */
const INFO_STRING = /^[\w+#.-]*$/;

/**
 * A ``` or ~~~ fence line, optionally with an info string. Hover text comes from workspace
 * files through the server: no backtracking regular expression runs over it (SPEC §8; a
 * fence line of spaces and one other character backtracked quadratically).
 */
export function isFenceLine(line: string): boolean {
  const t = line.trim();
  const fence = t[0];
  if (fence !== "`" && fence !== "~") return false;
  let n = 1;
  while (t[n] === fence) n += 1;
  return n >= 3 && INFO_STRING.test(t.slice(n).trimStart());
}

function cleanLines(text: string, dropFences: boolean): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const kept = dropFences ? lines.filter((l) => !isFenceLine(l)) : lines;
  return kept
    .map((l) => l.trimEnd())
    .join("\n")
    .trim();
}

/** One hover part → cleaned text ("" when empty or unrecognized). */
function partText(part: unknown): string {
  if (typeof part === "string") return cleanLines(part, true); // MarkedString: markdown
  if (typeof part !== "object" || part === null) return "";
  const p = part as { kind?: unknown; language?: unknown; value?: unknown };
  if (typeof p.value !== "string") return "";
  if (typeof p.kind === "string") return cleanLines(p.value, p.kind === "markdown");
  // {language, value}: a code block whose value is already plain code
  return cleanLines(p.value, false);
}

export function normalizeHover(
  h: Hover | null | undefined,
  uri: string,
  ctx: NormalizeContext,
): { text: string | null; range: Range | null } {
  if (h === null || h === undefined || typeof h !== "object") return { text: null, range: null };
  const parts: unknown[] = Array.isArray(h.contents) ? h.contents : [h.contents];
  const text = parts
    .map(partText)
    .filter((t) => t.length > 0)
    .join("\n\n");
  const range = isLspRange(h.range) ? ctx.toRange(uri, h.range) : null;
  return { text: text.length > 0 ? text : null, range };
}
