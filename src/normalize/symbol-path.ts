/**
 * `symbol` without `line` (SPEC §4.2): a name, or a dotted path of names for
 * nested symbols (`Box.size`), looked up in a file's normalized document-symbol
 * tree. Names are also matched as each language writes them, beside the server's
 * own spelling: gopls names a method `(*Decoder).Decode` at the top level, which
 * `Decoder.Decode` and `Decode` find; rust-analyzer nests methods under
 * `impl ParserI<'s, P>` or `impl Display for Rect`, which count as `ParserI` and
 * `Rect`. Pure: the caller turns the answer into a position or an error.
 */
import { compareStrings } from "./order.ts";
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

const IDENTIFIER = /^[\p{L}\p{N}_]+$/u;

/** gopls's method name `(*T).m`, `(T).m`, `(*T[P]).m`: the receiver type and the method. */
export function goMethod(name: string): { receiver: string; method: string } | undefined {
  if (!name.startsWith("(")) return undefined;
  const close = name.indexOf(").");
  if (close < 0) return undefined;
  let receiver = name.slice(1, close);
  if (receiver.startsWith("*")) receiver = receiver.slice(1);
  const bracket = receiver.indexOf("[");
  if (bracket >= 0) receiver = receiver.slice(0, bracket);
  const method = name.slice(close + 2);
  if (!IDENTIFIER.test(receiver) || !IDENTIFIER.test(method)) return undefined;
  return { receiver, method };
}

/** Past the `<…>` that starts at `i` (nested), or the end of the text. */
function skipAngles(text: string, i: number): number {
  let depth = 0;
  let j = i;
  for (; j < text.length; j++) {
    if (text[j] === "<") depth++;
    else if (text[j] === ">" && --depth === 0) return j + 1;
  }
  return j;
}

/**
 * rust-analyzer's impl block name → the type it implements for: `impl<T> Wrapper<T>`,
 * `impl ParserI<'s, P>`, `impl Display for crate::Rect` → `Wrapper`, `ParserI`, `Rect`.
 */
export function implSelfType(name: string): string | undefined {
  if (!name.startsWith("impl") || !(name[4] === " " || name[4] === "<")) return undefined;
  let rest = name.slice(name[4] === "<" ? skipAngles(name, 4) : 4);
  // `Trait<…> for Type`: the type after ` for ` outside angle brackets
  let depth = 0;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    if (c === "<") depth++;
    else if (c === ">") depth--;
    else if (depth === 0 && rest.startsWith(" for ", i)) {
      rest = rest.slice(i + 5);
      break;
    }
  }
  rest = rest.trim().replace(/^(?:&(?:mut\s+)?|dyn\s+|\*(?:const|mut)\s+)/, "");
  let end = 0;
  while (end < rest.length && /[\p{L}\p{N}_:]/u.test(rest[end] as string)) end++;
  const path = rest.slice(0, end);
  const type = path.slice(path.lastIndexOf(":") + 1);
  return IDENTIFIER.test(type) ? type : undefined;
}

/** The names a container answers to: its own, and the type of an impl block. */
function spellings(name: string): string[] {
  const type = implSelfType(name);
  return type === undefined ? [name] : [name, type];
}

function endsWith(ancestors: readonly string[][], prefix: string[]): boolean {
  if (prefix.length > ancestors.length) return false;
  const from = ancestors.length - prefix.length;
  return prefix.every((name, i) => ancestors[from + i]?.includes(name) === true);
}

/**
 * Every symbol whose name is `query`, or — when `query` has dots — whose name is the last
 * segment and whose innermost ancestors are the earlier segments, in order. A path may
 * start at any depth (`Box.size` finds `size` in a `Box` nested anywhere). Names are
 * compared exactly (case-sensitive). Canonical order: selection position, name, kind.
 * A path as the language spells it — `geo::Box::area`, `impl Parser::parse` — is read as
 * the dotted one when no symbol has that exact name.
 */
export function findSymbols(tree: readonly SymbolNode[], query: string): SymbolMatch[] {
  const exact = findExactly(tree, query);
  if (exact.length > 0 || !(query.includes("::") || query.startsWith("impl "))) return exact;
  return findExactly(tree, query.replace(/^impl\s+/, "").replaceAll("::", "."));
}

function findExactly(tree: readonly SymbolNode[], query: string): SymbolMatch[] {
  const segments = query.split(".");
  const path = segments.length > 1 && segments.every((s) => s.length > 0) ? segments : undefined;
  const last = path?.[path.length - 1];
  const prefix = path?.slice(0, -1) ?? [];
  const out: SymbolMatch[] = [];
  const visit = (nodes: readonly SymbolNode[], ancestors: string[], names: string[][]): void => {
    for (const node of nodes) {
      const go = goMethod(node.name);
      const word = go?.method ?? node.name;
      // a Go method: named by its method, inside its receiver type
      const within = go ? [...names, [go.receiver]] : names;
      const byName = node.name === query || (go !== undefined && go.method === query);
      const byPath =
        last !== undefined &&
        ((node.name === last && endsWith(names, prefix)) ||
          (go?.method === last && endsWith(within, prefix)));
      if (byName || byPath) out.push({ node, ancestors, word });
      visit(node.children, [...ancestors, node.name], [...names, spellings(node.name)]);
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
  const wanted = (query.split(".").at(-1) ?? query).toLowerCase();
  if (wanted.length === 0) return [];
  const near: { path: string; score: number; order: number }[] = [];
  const visit = (nodes: readonly SymbolNode[], ancestors: string[]): void => {
    for (const node of nodes) {
      const word = goMethod(node.name)?.method ?? node.name;
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
