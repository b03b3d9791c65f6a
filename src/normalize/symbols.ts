/**
 * document_symbols and workspace_symbols results (SPEC §4.3). Kinds are lower-case names,
 * never LSP numbers; lists are in canonical order.
 */

import type {
  DocumentSymbol,
  SymbolInformation,
  WorkspaceSymbol,
} from "vscode-languageserver-protocol";
import { isJsonObject } from "./json.ts";
import { compareRange, compareSymbolNode, sortedUniqueWorkspaceSymbols } from "./order.ts";
import { isLspRange } from "./range-converter.ts";
import type { NormalizeContext, Range, SymbolNode, WorkspaceSymbolOut } from "./types.ts";

export type { SymbolNode, WorkspaceSymbolOut } from "./types.ts";

/** LSP SymbolKind 1..26, in order. */
const SYMBOL_KIND_NAMES = [
  "file",
  "module",
  "namespace",
  "package",
  "class",
  "method",
  "property",
  "field",
  "constructor",
  "enum",
  "interface",
  "function",
  "variable",
  "constant",
  "string",
  "number",
  "boolean",
  "array",
  "object",
  "key",
  "null",
  "enum_member",
  "struct",
  "event",
  "operator",
  "type_parameter",
] as const;

export function symbolKindName(kind: number): string {
  return Number.isInteger(kind) ? (SYMBOL_KIND_NAMES[kind - 1] ?? "unknown") : "unknown";
}

function makeNode(
  name: string,
  kind: number,
  detail: unknown,
  range: Range,
  selection: Range,
  children: SymbolNode[],
): SymbolNode {
  const sorted = children.sort(compareSymbolNode);
  const kindName = symbolKindName(kind);
  // keys in the order of types.ts
  return typeof detail === "string" && detail.length > 0
    ? { name, kind: kindName, detail, range, selection, children: sorted }
    : { name, kind: kindName, range, selection, children: sorted };
}

/** A hierarchical DocumentSymbol and its children onto `out`; malformed entries are dropped. */
function fromDocumentSymbol(
  s: DocumentSymbol,
  uri: string,
  ctx: NormalizeContext,
  out: SymbolNode[],
): void {
  if (typeof s.name !== "string" || !isLspRange(s.range)) return;
  const range = ctx.toRange(uri, s.range);
  const selection = isLspRange(s.selectionRange) ? ctx.toRange(uri, s.selectionRange) : range;
  const children: SymbolNode[] = [];
  if (Array.isArray(s.children)) {
    for (const c of s.children) if (isJsonObject(c)) fromDocumentSymbol(c, uri, ctx, children);
  }
  out.push(makeNode(s.name, s.kind, s.detail, range, selection, children));
}

function contains(outer: Range, inner: Range): boolean {
  const startsBefore =
    outer.line < inner.line || (outer.line === inner.line && outer.column <= inner.column);
  const endsAfter =
    outer.end_line > inner.end_line ||
    (outer.end_line === inner.end_line && outer.end_column >= inner.end_column);
  return startsBefore && endsAfter;
}

/**
 * Flat SymbolInformation → tree by range containment. Nodes are visited by start, widest
 * first, so each node's parent is the innermost earlier node that strictly contains it.
 * Symbols with identical ranges stay siblings (neither contains the other).
 */
function treeFromFlat(flat: SymbolNode[]): SymbolNode[] {
  const sorted = [...flat].sort(
    (a, b) =>
      a.range.line - b.range.line ||
      a.range.column - b.range.column ||
      b.range.end_line - a.range.end_line ||
      b.range.end_column - a.range.end_column ||
      compareSymbolNode(a, b),
  );
  const roots: SymbolNode[] = [];
  const stack: SymbolNode[] = [];
  for (const node of sorted) {
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as SymbolNode;
      if (contains(top.range, node.range) && compareRange(top.range, node.range) !== 0) break;
      stack.pop();
    }
    const parent = stack[stack.length - 1];
    (parent ? parent.children : roots).push(node);
    stack.push(node);
  }
  const sortDeep = (nodes: SymbolNode[]): SymbolNode[] => {
    for (const n of nodes) sortDeep(n.children);
    return nodes.sort(compareSymbolNode);
  };
  return sortDeep(roots);
}

/**
 * textDocument/documentSymbol → tree. Hierarchical input keeps its hierarchy; flat
 * SymbolInformation becomes a tree by containment, with selection = range (flat input has
 * no selection range). Children are sorted by position at every level.
 */
export function normalizeDocumentSymbols(
  result: DocumentSymbol[] | SymbolInformation[] | null | undefined,
  uri: string,
  ctx: NormalizeContext,
): SymbolNode[] {
  if (!Array.isArray(result)) return [];
  const hierarchical: SymbolNode[] = [];
  const flat: SymbolNode[] = [];
  for (const item of result as unknown[]) {
    if (!isJsonObject(item)) continue;
    if ("location" in item) {
      const info = item as unknown as SymbolInformation;
      if (typeof info.name !== "string" || !isJsonObject(info.location)) continue;
      if (!isLspRange(info.location.range)) continue;
      const docUri = typeof info.location.uri === "string" ? info.location.uri : uri;
      const range = ctx.toRange(docUri, info.location.range);
      flat.push(makeNode(info.name, info.kind, undefined, range, range, []));
    } else {
      fromDocumentSymbol(item as unknown as DocumentSymbol, uri, ctx, hierarchical);
    }
  }
  if (flat.length === 0) return hierarchical.sort(compareSymbolNode);
  return treeFromFlat([...hierarchical, ...flat]);
}

/** Number of nodes in a symbol tree, nested ones included. */
export function countSymbols(tree: SymbolNode[]): number {
  let n = 0;
  for (const node of tree) n += 1 + countSymbols(node.children);
  return n;
}

/**
 * workspace/symbol → flat list in canonical order (file/uri, position, name, kind,
 * container); exact duplicates are dropped. A WorkspaceSymbol whose location has no range
 * carries no range fields.
 */
export function normalizeWorkspaceSymbols(
  result: SymbolInformation[] | WorkspaceSymbol[] | null | undefined,
  ctx: NormalizeContext,
): WorkspaceSymbolOut[] {
  if (!Array.isArray(result)) return [];
  const symbols: WorkspaceSymbolOut[] = [];
  for (const item of result as unknown[]) {
    if (!isJsonObject(item) || typeof item.name !== "string" || !isJsonObject(item.location))
      continue;
    const s = item as unknown as WorkspaceSymbol;
    const location = s.location as { uri?: unknown; range?: unknown };
    if (typeof location.uri !== "string") continue;
    const name = s.name;
    const kind = symbolKindName(s.kind);
    const container =
      typeof s.containerName === "string" && s.containerName.length > 0
        ? s.containerName
        : undefined;
    const head = container === undefined ? { name, kind } : { name, kind, container };
    // keys in the order of types.ts: the head, then the location's (no range fields without one)
    const where = isLspRange(location.range)
      ? ctx.toLoc(location.uri, location.range)
      : ctx.toTarget(location.uri);
    symbols.push({ ...head, ...where });
  }
  return sortedUniqueWorkspaceSymbols(symbols);
}
