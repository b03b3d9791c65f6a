/**
 * completion results (SPEC §4.3): each item as `{label, kind?, detail?, label_details?,
 * insert, range?}` — `insert` the text it inserts (its edit's text, else `insertText`, else
 * the label; a snippet as the plain text it inserts, snippet.ts), `range` the edit's range
 * only when it is more than the cursor. The server's order made deterministic: by
 * `sortText` (else the label), then label, kind, insert text and the rest. The list's item
 * defaults (LSP 3.17) are applied first. Servers are untrusted: items without a string
 * label or with a malformed edit are dropped; an answer that is no list at all is
 * reported by the caller.
 */
import type { CompletionItem } from "vscode-languageserver-protocol";
import type { LspPosition, LspRange } from "../text/positions.ts";
import { documentationText } from "./hover.ts";
import { canonicalJson, isJsonObject } from "./json.ts";
import { compareOptionalStrings, compareStrings } from "./order.ts";
import { isLspRange } from "./range-converter.ts";
import { snippetToText } from "./snippet.ts";
import type { NormalizeContext, Range } from "./types.ts";

/** LSP CompletionItemKind 1..25, in order, named as symbol kinds are (symbols.ts). */
const COMPLETION_KIND_NAMES = [
  "text",
  "method",
  "function",
  "constructor",
  "field",
  "variable",
  "class",
  "interface",
  "module",
  "property",
  "unit",
  "value",
  "enum",
  "keyword",
  "snippet",
  "color",
  "file",
  "reference",
  "folder",
  "enum_member",
  "constant",
  "struct",
  "event",
  "operator",
  "type_parameter",
] as const;

/** InsertTextFormat.Snippet */
const SNIPPET = 2;

export interface CompletionItemOut {
  label: string;
  kind?: string;
  detail?: string;
  label_details?: { detail?: string; description?: string };
  insert: string;
  range?: Range;
  documentation?: string;
}

/** An item as answered (the list's defaults applied: what resolve is sent), and as shown. */
export interface CompletionEntry {
  raw: CompletionItem;
  out: CompletionItemOut;
  /** `sortText`, else the label: the server's order */
  sortKey: string;
}

export interface CompletionAnswer {
  entries: CompletionEntry[];
  isIncomplete: boolean;
}

function text(v: unknown): string | undefined {
  return typeof v === "string" && v.length > 0 ? v : undefined;
}

/** A CompletionItemKind's name; undefined when the item has none. */
export function completionKindName(kind: unknown): string | undefined {
  if (kind === undefined || kind === null) return undefined;
  return Number.isInteger(kind)
    ? (COMPLETION_KIND_NAMES[(kind as number) - 1] ?? "unknown")
    : "unknown";
}

function labelDetails(v: unknown): CompletionItemOut["label_details"] {
  if (!isJsonObject(v)) return undefined;
  const detail = text(v.detail);
  const description = text(v.description);
  if (detail === undefined && description === undefined) return undefined;
  return {
    ...(detail !== undefined ? { detail } : {}),
    ...(description !== undefined ? { description } : {}),
  };
}

/** An edit's range: a TextEdit's, or an InsertReplaceEdit's insert range; null when malformed. */
function editRange(edit: Record<string, unknown>): LspRange | null {
  if (isLspRange(edit.range)) return edit.range;
  if (isLspRange(edit.insert)) return edit.insert;
  return null;
}

/** The item with the list's `itemDefaults` applied where it has none of its own (LSP 3.17). */
function withDefaults(item: Record<string, unknown>, defaults: unknown): Record<string, unknown> {
  if (!isJsonObject(defaults)) return item;
  const out = { ...item };
  if (out.insertTextFormat === undefined && defaults.insertTextFormat !== undefined) {
    out.insertTextFormat = defaults.insertTextFormat;
  }
  if (out.data === undefined && defaults.data !== undefined) out.data = defaults.data;
  if (out.textEdit === undefined && defaults.editRange !== undefined) {
    const newText =
      text(out.textEditText) ?? (typeof out.insertText === "string" ? out.insertText : out.label);
    const r = defaults.editRange;
    out.textEdit = isJsonObject(r) && "insert" in r ? { newText, ...r } : { newText, range: r };
  }
  return out;
}

function sameAsCursor(r: LspRange, at: LspPosition): boolean {
  return (
    r.start.line === at.line &&
    r.start.character === at.character &&
    r.end.line === at.line &&
    r.end.character === at.character
  );
}

/** One item as shown, keys in output order; undefined when malformed. */
function itemOut(
  item: Record<string, unknown>,
  at: LspPosition,
  uri: string,
  ctx: NormalizeContext,
): CompletionItemOut | undefined {
  if (typeof item.label !== "string") return undefined;
  let insert = typeof item.insertText === "string" ? item.insertText : item.label;
  let range: Range | undefined;
  if (item.textEdit !== undefined) {
    const edit = item.textEdit;
    const r = isJsonObject(edit) ? editRange(edit) : null;
    if (!isJsonObject(edit) || r === null || typeof edit.newText !== "string") return undefined;
    insert = edit.newText;
    if (!sameAsCursor(r, at)) range = ctx.toRange(uri, r);
  }
  if (item.insertTextFormat === SNIPPET) insert = snippetToText(insert);
  const kind = completionKindName(item.kind);
  const detail = text(item.detail);
  const details = labelDetails(item.labelDetails);
  return {
    label: item.label,
    ...(kind !== undefined ? { kind } : {}),
    ...(detail !== undefined ? { detail } : {}),
    ...(details !== undefined ? { label_details: details } : {}),
    insert,
    ...(range !== undefined ? { range } : {}),
  };
}

export function compareCompletionEntries(a: CompletionEntry, b: CompletionEntry): number {
  return (
    compareStrings(a.sortKey, b.sortKey) ||
    compareStrings(a.out.label, b.out.label) ||
    compareOptionalStrings(a.out.kind, b.out.kind) ||
    compareStrings(a.out.insert, b.out.insert) ||
    compareStrings(canonicalJson(a.out), canonicalJson(b.out))
  );
}

/**
 * A `textDocument/completion` answer at `at` in `uri`: its items, sorted; null → no items.
 * Undefined when the answer is neither an item list nor a CompletionList.
 */
export function normalizeCompletion(
  answer: unknown,
  at: LspPosition,
  uri: string,
  ctx: NormalizeContext,
): CompletionAnswer | undefined {
  if (answer === null || answer === undefined) return { entries: [], isIncomplete: false };
  const list = isJsonObject(answer) ? answer : undefined;
  const items = Array.isArray(answer) ? answer : list?.items;
  if (!Array.isArray(items)) return undefined;
  const entries: CompletionEntry[] = [];
  for (const item of items as unknown[]) {
    if (!isJsonObject(item)) continue;
    const raw = withDefaults(item, list?.itemDefaults);
    const out = itemOut(raw, at, uri, ctx);
    if (out === undefined) continue;
    const sortKey = typeof raw.sortText === "string" ? raw.sortText : out.label;
    entries.push({ raw: raw as unknown as CompletionItem, out, sortKey });
  }
  entries.sort(compareCompletionEntries);
  return { entries, isIncomplete: list?.isIncomplete === true };
}

/**
 * The item as shown with what `completionItem/resolve` answered (`resolved`; undefined when
 * not resolved): its detail where it gives one, and the documentation as plain text.
 */
export function withDocumentation(
  entry: CompletionEntry,
  resolved: unknown,
  ctx: NormalizeContext,
): CompletionItemOut {
  const r = isJsonObject(resolved) ? resolved : {};
  const detail = text(r.detail) ?? entry.out.detail;
  const documentation = documentationText(r.documentation ?? entry.raw.documentation, ctx);
  const { label, kind, label_details, insert, range } = entry.out;
  return {
    label,
    ...(kind !== undefined ? { kind } : {}),
    ...(detail !== undefined ? { detail } : {}),
    ...(label_details !== undefined ? { label_details } : {}),
    insert,
    ...(range !== undefined ? { range } : {}),
    ...(documentation !== undefined ? { documentation } : {}),
  };
}
