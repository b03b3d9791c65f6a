/**
 * `symbol` without `line` (SPEC §4.2): a name, or a dotted path of names for
 * nested symbols (`Box.size`), looked up in a file's normalized document-symbol
 * tree. Pure: the caller turns the answer into a position or an error.
 */
import { compareStrings } from "./order.ts";
import type { SymbolNode } from "./types.ts";

/** One matching symbol: the node and the names of its ancestors, outermost first. */
export interface SymbolMatch {
  node: SymbolNode;
  ancestors: string[];
}

/** How an ambiguous match is reported (SPEC §4.6 AmbiguousSymbol `details.candidates`). */
export interface SymbolCandidate {
  name: string;
  kind: string;
  container?: string;
  line: number;
  column: number;
}

function endsWith(ancestors: string[], prefix: string[]): boolean {
  if (prefix.length > ancestors.length) return false;
  const from = ancestors.length - prefix.length;
  return prefix.every((name, i) => ancestors[from + i] === name);
}

/**
 * Every symbol whose name is `query`, or — when `query` has dots — whose name is the last
 * segment and whose innermost ancestors are the earlier segments, in order. A path may
 * start at any depth (`Box.size` finds `size` in a `Box` nested anywhere). Names are
 * compared exactly (case-sensitive). Canonical order: selection position, name, kind.
 */
export function findSymbols(tree: readonly SymbolNode[], query: string): SymbolMatch[] {
  const segments = query.split(".");
  const path = segments.length > 1 && segments.every((s) => s.length > 0) ? segments : undefined;
  const last = path?.[path.length - 1];
  const prefix = path?.slice(0, -1) ?? [];
  const out: SymbolMatch[] = [];
  const visit = (nodes: readonly SymbolNode[], ancestors: string[]): void => {
    for (const node of nodes) {
      const byName = node.name === query;
      const byPath = last !== undefined && node.name === last && endsWith(ancestors, prefix);
      if (byName || byPath) out.push({ node, ancestors });
      visit(node.children, [...ancestors, node.name]);
    }
  };
  visit(tree, []);
  return out.sort(
    (a, b) =>
      a.node.selection.line - b.node.selection.line ||
      a.node.selection.column - b.node.selection.column ||
      compareStrings(a.node.name, b.node.name) ||
      compareStrings(a.node.kind, b.node.kind),
  );
}

export function candidateOf(m: SymbolMatch): SymbolCandidate {
  return {
    name: m.node.name,
    kind: m.node.kind,
    ...(m.ancestors.length > 0 ? { container: m.ancestors.join(".") } : {}),
    line: m.node.selection.line,
    column: m.node.selection.column,
  };
}
