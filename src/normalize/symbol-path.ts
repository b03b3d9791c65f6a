/**
 * `symbol` without `line` (SPEC §4.2): a name, or a path of names for nested symbols
 * (`Box.size`), looked up in a file's normalized document-symbol tree. Names are also
 * matched as each language writes them, beside the server's own spelling
 * (symbol-spelling.ts): gopls's `(*Decoder).Decode` is `Decoder.Decode` and `Decode`;
 * rust-analyzer's `impl Display for Rect` is `Rect`, and `impl Display for Rect` only;
 * clangd's out-of-line `S::m` is `m` in `S`, and stands for the declaration it defines.
 * Pure: the caller turns the answer into a position or an error.
 */
import { compareStrings } from "./order.ts";
import { bare, namesContainer, querySegments, spelled } from "./symbol-spelling.ts";
import type { SymbolNode } from "./types.ts";

/** One matching symbol: the node, the names of its ancestors (outermost first), its name in the text. */
export interface SymbolMatch {
  node: SymbolNode;
  ancestors: string[];
  /** the name as the source writes it (`Decode` of `(*Decoder).Decode`) */
  word: string;
}

/** How an ambiguous match is reported (SPEC §4.6 AmbiguousSymbol `details.candidates`). */
export interface SymbolCandidate {
  name: string;
  kind: string;
  container?: string;
  line: number;
  column: number;
}

interface Found extends SymbolMatch {
  /** the containers it stands in, as the text names them, and its own name */
  path: string[];
  outOfLine: boolean;
}

function endsWith(levels: readonly string[], prefix: readonly string[]): boolean {
  if (prefix.length > levels.length) return false;
  const from = levels.length - prefix.length;
  return prefix.every((segment, i) => namesContainer(segment, levels[from + i] as string));
}

/**
 * Every symbol `query` names (SPEC §4.2), declarations beside their definitions: by its
 * exact name; by the name its text writes (`Push` of `(*List[T]).Push`, `m` of `S::m`); or,
 * when `query` is a path (`Box.size`, `a::b::S::m`, `impl Parser::parse`, `(*List).Push`),
 * by the last segment with the earlier ones naming its innermost containers — ancestors or
 * the qualifiers of its own name — from any depth. Names compare exactly (case-sensitive).
 * A path that starts with a name the file's symbols are qualified with (`lib.Add`, see
 * fileQualifiers) and finds nothing is read without it. Canonical order: selection
 * position, name, kind.
 */
export function matchSymbols(
  tree: readonly SymbolNode[],
  query: string,
  qualifiers: readonly string[] = [],
): SymbolMatch[] {
  return found(tree, query, qualifiers).map(({ node, ancestors, word }) => ({
    node,
    ancestors,
    word,
  }));
}

/**
 * The symbols `query` names (matchSymbols), a declaration left out where its out-of-line
 * definition matches too: the same containers and name, the same detail (C++'s
 * `void m() const;` in `S` beside `void S::m() const {…}`).
 */
export function findSymbols(
  tree: readonly SymbolNode[],
  query: string,
  qualifiers: readonly string[] = [],
): SymbolMatch[] {
  const all = found(tree, query, qualifiers);
  const definitions = all.filter((m) => m.outOfLine);
  const defined = (m: Found) =>
    !m.outOfLine &&
    definitions.some(
      (d) =>
        d.path.length === m.path.length &&
        d.path.every((name, i) => name === m.path[i]) &&
        (d.node.detail === undefined ||
          m.node.detail === undefined ||
          d.node.detail === m.node.detail),
    );
  return all
    .filter((m) => !defined(m))
    .map(({ node, ancestors, word }) => ({ node, ancestors, word }));
}

function found(tree: readonly SymbolNode[], query: string, qualifiers: readonly string[]) {
  const out = foundExactly(tree, query);
  if (out.length > 0) return out;
  for (const q of qualifiers) {
    for (const sep of [".", "::"]) {
      const rest = query.startsWith(q + sep) ? query.slice(q.length + sep.length) : "";
      if (rest !== "") return foundExactly(tree, rest);
    }
  }
  return out;
}

function foundExactly(tree: readonly SymbolNode[], query: string): Found[] {
  const segments = querySegments(query) ?? [query];
  const last = segments.at(-1) as string;
  const lastBare = bare(last);
  const prefix = segments.slice(0, -1);
  const out: Found[] = [];
  const visit = (nodes: readonly SymbolNode[], ancestors: string[], levels: string[]): void => {
    for (const node of nodes) {
      const { word, qualifiers, outOfLine } = spelled(node.name);
      const own = [...levels, ...qualifiers];
      const named = node.name === last || word === last || word === lastBare;
      if (node.name === query || (named && endsWith(own, prefix))) {
        out.push({ node, ancestors, word, path: [...own, word], outOfLine });
      }
      visit(node.children, [...ancestors, node.name], [...own, outOfLine ? word : node.name]);
    }
  };
  visit(tree, [], []);
  return out.sort(
    (a, b) =>
      a.node.selection.line - b.node.selection.line ||
      a.node.selection.column - b.node.selection.column ||
      compareStrings(a.node.name, b.node.name) ||
      compareStrings(a.node.kind, b.node.kind),
  );
}

/** A match as AmbiguousSymbol lists it, at `at` (where its name starts; the selection by default). */
export function candidateOf(
  m: SymbolMatch,
  at: { line: number; column: number } = m.node.selection,
): SymbolCandidate {
  return {
    name: m.node.name,
    kind: m.node.kind,
    ...(m.ancestors.length > 0 ? { container: m.ancestors.join(".") } : {}),
    line: at.line,
    column: at.column,
  };
}

/** Edit distance of two short names, or Infinity once it is past `max`. */
function distanceWithin(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return Number.POSITIVE_INFINITY;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + cost,
      );
    }
    if (Math.min(...row) > max) return Number.POSITIVE_INFINITY;
    prev = row;
  }
  return prev[b.length] as number;
}

/** How near a symbol's name is to the name asked for (lower is nearer), or undefined. */
function nearness(word: string, wanted: string): number | undefined {
  const w = word.toLowerCase();
  if (w === wanted) return 0;
  if (wanted.length >= 3 && (w.includes(wanted) || (w.length >= 3 && wanted.includes(w)))) {
    return 1;
  }
  const d = distanceWithin(w, wanted, 2);
  return d <= 2 && wanted.length > d + 1 ? 1 + d : undefined;
}

/**
 * For SymbolNotFound's hint: the dotted paths of at most `max` symbols whose name is near
 * the last segment of `query` — the same name in another case or container, one that
 * contains it, or one a typo or two away — nearest first, then in position order.
 */
export function nearSymbols(tree: readonly SymbolNode[], query: string, max = 5): string[] {
  const wanted = bare(querySegments(query)?.at(-1) ?? query).toLowerCase();
  if (wanted.length === 0) return [];
  const near: { path: string; score: number; order: number }[] = [];
  const visit = (nodes: readonly SymbolNode[], ancestors: string[]): void => {
    for (const node of nodes) {
      const { word } = spelled(node.name);
      const score = nearness(word, wanted);
      const path = [...ancestors, node.name].join(".");
      if (score !== undefined && path !== query) near.push({ path, score, order: near.length });
      visit(node.children, [...ancestors, node.name]);
    }
  };
  visit(tree, []);
  const paths = near.sort((a, b) => a.score - b.score || a.order - b.order).map((n) => n.path);
  return [...new Set(paths)].slice(0, max);
}
