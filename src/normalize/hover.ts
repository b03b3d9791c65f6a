/**
 * hover → `{text, range}` (SPEC §4.3). Every content form (MarkedString, MarkedString[],
 * MarkupContent) becomes plain text: markdown as its reader sees it (markdown.ts: code
 * fences dropped with their content kept, headers, escapes, character references and
 * links resolved, file URIs named as results name files), parts joined by a blank line,
 * CRLF/CR → LF, trailing whitespace trimmed per line and the whole text trimmed at both
 * ends. No text → null.
 */

import type { Hover } from "vscode-languageserver-protocol";
import { type FileUriText, markdownToText } from "./markdown.ts";
import { isLspRange } from "./range-converter.ts";
import type { NormalizeContext, Range } from "./types.ts";

export { isFenceLine } from "./markdown.ts";

function cleanLines(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n")
    .trim();
}

/** One hover part → cleaned text ("" when empty or unrecognized). */
function partText(part: unknown, fileUri: FileUriText): string {
  // MarkedString: markdown
  if (typeof part === "string") return markdownToText(part, fileUri).trim();
  if (typeof part !== "object" || part === null) return "";
  const p = part as { kind?: unknown; language?: unknown; value?: unknown };
  if (typeof p.value !== "string") return "";
  if (p.kind === "markdown") return markdownToText(p.value, fileUri).trim();
  // plaintext, or {language, value}: a code block whose value is already plain code
  return cleanLines(p.value);
}

/** A file URI in hover text: workspace-relative inside the workspace, else the file's name. */
function fileUriText(ctx: NormalizeContext): FileUriText {
  return (uri) => {
    const bare = uri.replace(/[?#].*$/s, "");
    const target = ctx.toTarget(bare);
    if ("file" in target && !target.file.startsWith("/")) return target.file;
    const path = "file" in target ? target.file : bare;
    return path.slice(path.lastIndexOf("/") + 1);
  };
}

export function normalizeHover(
  h: Hover | null | undefined,
  uri: string,
  ctx: NormalizeContext,
): { text: string | null; range: Range | null } {
  if (h === null || h === undefined || typeof h !== "object") return { text: null, range: null };
  const parts: unknown[] = Array.isArray(h.contents) ? h.contents : [h.contents];
  const fileUri = fileUriText(ctx);
  const text = parts
    .map((p) => partText(p, fileUri))
    .filter((t) => t.length > 0)
    .join("\n\n");
  const range = isLspRange(h.range) ? ctx.toRange(uri, h.range) : null;
  return { text: text.length > 0 ? text : null, range };
}
