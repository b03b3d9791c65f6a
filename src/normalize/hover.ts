/**
 * hover → `{text, range}` (SPEC §4.3). Every content form (MarkedString, MarkedString[],
 * MarkupContent) becomes plain text: markdown as its reader sees it (markdown.ts: code
 * fences dropped with their content kept, headers, escapes, character references and
 * links resolved, file URIs and paths named as results name files), parts joined by a blank line,
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
    .replaceAll("\r\n", "\n")
    .replaceAll("\r", "\n")
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

/** A path character: what may sit right before a root spelling inside a longer path. */
const PATH_CHAR = /[\w.~/-]/;
/** A line that is one absolute path (two segments or more; nothing else on it). */
const PATH_LINE = /^\/[\w.+@~-]+(?:\/[\w.+@~-]+)+$/;

/** `text` with every path under `root` workspace-relative (the root itself "."). */
function relativeUnder(text: string, root: string): string {
  let out = "";
  let from = 0;
  for (let at = text.indexOf(root); at !== -1; at = text.indexOf(root, at + root.length)) {
    const before = at > 0 && PATH_CHAR.test(text[at - 1] as string);
    const after = text[at + root.length];
    if (before || (after !== undefined && after !== "/" && PATH_CHAR.test(after))) continue;
    out += text.slice(from, at) + (after === "/" ? "" : ".");
    from = at + root.length + (after === "/" ? 1 : 0);
  }
  return out + text.slice(from);
}

/**
 * Paths written in hover text, named as results name files (SPEC §4.3): under the
 * workspace root, workspace-relative; a line that is one absolute path elsewhere (clangd's
 * hover on an `#include`), the file's name alone.
 */
function portablePaths(text: string, roots: readonly string[]): string {
  let out = text;
  for (const root of roots) if (root !== "/" && out.includes(root)) out = relativeUnder(out, root);
  if (!out.includes("/")) return out;
  return out
    .split("\n")
    .map((line) => {
      const t = line.trim();
      return PATH_LINE.test(t) ? t.slice(t.lastIndexOf("/") + 1) : line;
    })
    .join("\n");
}

/**
 * A `documentation` field of completion items and signatures (`string | MarkupContent`)
 * as plain text, converted as hover text is; a bare string is plain text there, not
 * markdown. Empty or unrecognized: undefined.
 */
export function documentationText(doc: unknown, ctx: NormalizeContext): string | undefined {
  const part = typeof doc === "string" ? { kind: "plaintext", value: doc } : doc;
  const text = portablePaths(partText(part, fileUriText(ctx)), ctx.roots);
  return text.length > 0 ? text : undefined;
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
    .map((p) => portablePaths(partText(p, fileUri), ctx.roots))
    .filter((t) => t.length > 0)
    .join("\n\n");
  const range = isLspRange(h.range) ? ctx.toRange(uri, h.range) : null;
  return { text: text.length > 0 ? text : null, range };
}
