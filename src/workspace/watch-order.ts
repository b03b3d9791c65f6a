/**
 * Which directories the watcher watches when it may not watch them all (SPEC §5.2), pure:
 * the directories of open documents and their ancestors first, then the directories that
 * hold source files and their ancestors, then the rest; within each, shallow before deep,
 * then by path — never the order a directory happens to be listed in. A directory always
 * comes after its parent, so what is watched is a tree hanging from the root and what is
 * not is whole subtrees, each counted once (`unwatchedSubtrees`).
 */

export interface OrderNode {
  /** index of the parent node; -1 for the root */
  parent: number;
  path: string;
  depth: number;
  /** holds a file a subscribed server serves */
  source: boolean;
  /** > 0: never watchable (path too long); directories at and below it */
  deep: number;
  /** tagged as a cache: neither watched nor counted */
  cache: boolean;
}

const FOCUS = 0;
const SOURCE = 1;
const REST = 2;

/** Node indices in the order they are watched; unwatchable nodes are left out. */
export function watchOrder(nodes: readonly OrderNode[], focus: ReadonlySet<string>): number[] {
  const rank = nodes.map(() => REST);
  const lift = (from: number, to: number): void => {
    for (let i = from; i >= 0 && (rank[i] as number) > to; i = (nodes[i] as OrderNode).parent) {
      rank[i] = to;
    }
  };
  for (const [i, n] of nodes.entries()) {
    if (focus.has(n.path)) lift(i, FOCUS);
    else if (n.source) lift(i, SOURCE);
  }
  const watchable = [...nodes.keys()].filter((i) => {
    const n = nodes[i] as OrderNode;
    return n.deep === 0 && !n.cache;
  });
  return watchable.sort((a, b) => {
    const na = nodes[a] as OrderNode;
    const nb = nodes[b] as OrderNode;
    const byRank = (rank[a] as number) - (rank[b] as number);
    if (byRank !== 0) return byRank;
    if (na.depth !== nb.depth) return na.depth - nb.depth;
    return na.path < nb.path ? -1 : na.path > nb.path ? 1 : 0;
  });
}

/**
 * The topmost directories not watched — each one's parent is watched — with how many
 * directories each subtree holds (itself included), in path order.
 */
export function unwatchedSubtrees(
  nodes: readonly OrderNode[],
  watched: (index: number) => boolean,
): { path: string; count: number }[] {
  const size = nodes.map((n) => (n.cache ? 0 : n.deep > 0 ? n.deep : 1));
  // children come after their parents (a walk breadth first): sum from the end
  for (let i = nodes.length - 1; i > 0; i--) {
    const p = (nodes[i] as OrderNode).parent;
    if (p >= 0) size[p] = (size[p] as number) + (size[i] as number);
  }
  const out: { path: string; count: number }[] = [];
  for (const [i, n] of nodes.entries()) {
    if (n.parent < 0 || n.cache || watched(i) || !watched(n.parent)) continue;
    out.push({ path: n.path, count: size[i] as number });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
