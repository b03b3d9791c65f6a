/**
 * The import graph of `src/`, read from the source text: which file imports which (static,
 * type-only, re-exports and dynamic `import()` all count: each is a dependency a reader
 * follows), the same graph folded to folders, and the cycles of a graph. Used by
 * test/unit/import-graph.test.ts (no cycles) and test/unit/architecture.test.ts (the dependency
 * order of docs/ARCHITECTURE.md) to keep dependencies pointing one way.
 */
import { readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

/** `import … from "x"`, `export … from "x"` (statement start only), `import "x"`. */
const STATIC_IMPORT = /^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/gm;
const SIDE_EFFECT_IMPORT = /^\s*import\s*["']([^"']+)["']/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** Every module specifier `source` imports, in order of appearance per kind. */
export function importSpecifiers(source: string): string[] {
  const out: string[] = [];
  for (const re of [STATIC_IMPORT, SIDE_EFFECT_IMPORT, DYNAMIC_IMPORT]) {
    for (const m of source.matchAll(re)) if (m[1] !== undefined) out.push(m[1]);
  }
  return out;
}

export type Graph = Map<string, Set<string>>;

/**
 * File → files it imports, for every `.ts` file under `srcDir`; paths relative to `srcDir`.
 * Only relative specifiers that land on a listed file count (packages and JSON are outside).
 */
export function fileGraph(srcDir: string): Graph {
  const files = [...new Bun.Glob("**/*.ts").scanSync({ cwd: srcDir })].sort();
  const known = new Set(files);
  const graph: Graph = new Map();
  for (const file of files) {
    const targets = new Set<string>();
    for (const spec of importSpecifiers(readFileSync(join(srcDir, file), "utf8"))) {
      if (!spec.startsWith(".")) continue;
      const target = normalize(relative(".", join(dirname(file), spec)));
      if (known.has(target)) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** A file's folder under src (`session/documents.ts` → `session`); a top-level file is its own node. */
export function folderOf(file: string): string {
  const slash = file.indexOf("/");
  return slash === -1 ? file : file.slice(0, slash);
}

/** The graph folded by `group`; edges inside one group disappear. */
export function foldGraph(graph: Graph, group: (node: string) => string): Graph {
  const folded: Graph = new Map();
  for (const [from, targets] of graph) {
    const g = group(from);
    const out = folded.get(g) ?? new Set<string>();
    folded.set(g, out);
    for (const to of targets) if (group(to) !== g) out.add(group(to));
  }
  return folded;
}

/**
 * Every cycle of the graph as a strongly connected component (Tarjan): groups of two or
 * more nodes that reach each other, and single nodes importing themselves. Each component
 * is sorted, and the list too, so a failure message is stable.
 */
export function findCycles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (;;) {
      const member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1 || graph.get(node)?.has(node)) cycles.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

/** One import path inside a cycle (`a → b → a`), to show the reader where to cut. */
export function cyclePath(graph: Graph, component: string[]): string {
  const members = new Set(component);
  const start = component[0]!;
  const path = [start];
  const seen = new Set([start]);
  let node = start;
  for (;;) {
    const targets = [...(graph.get(node) ?? [])].filter((t) => members.has(t)).sort();
    const closing = targets.find((t) => t === start);
    const step = closing ?? targets.find((t) => !seen.has(t)) ?? targets[0];
    if (step === undefined) break;
    path.push(step);
    if (step === start || seen.has(step)) break;
    seen.add(step);
    node = step;
  }
  return path.join(" → ");
}
