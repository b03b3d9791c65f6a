/**
 * The watch priority past `bridge.max_watches` (SPEC §5.2), as a pure function: open
 * documents' directories and their ancestors first, then directories holding source files
 * and their ancestors, then the rest; shallow first, then by path — never listing order;
 * a directory never before its parent. What is left unwatched is counted per subtree.
 */
import { describe, expect, test } from "bun:test";
import {
  type OrderNode,
  unwatchedSubtrees,
  watchOrder,
} from "../../../src/workspace/watch-order.ts";

/** A tree from paths listed parents first (any sibling order: listing order must not matter). */
function tree(spec: Record<string, { source?: boolean; deep?: number; cache?: boolean }>) {
  const paths = ["/r", ...Object.keys(spec).map((p) => `/r/${p}`)];
  return paths.map((path): OrderNode => {
    const parent = path === "/r" ? -1 : paths.indexOf(path.slice(0, path.lastIndexOf("/")));
    const extra = spec[path.slice(3)] ?? {};
    return {
      parent,
      path,
      depth: path.split("/").length - 2,
      source: extra.source ?? false,
      deep: extra.deep ?? 0,
      cache: extra.cache ?? false,
    };
  });
}

const names = (nodes: OrderNode[], order: number[]) =>
  order.map((i) => nodes[i]?.path.slice(3) || "(root)");

describe("watchOrder", () => {
  test("no focus, no sources: breadth first by path, whatever the listing order", () => {
    const nodes = tree({ zeta: {}, alpha: {}, "zeta/x": {}, "alpha/y": {}, mid: {} });
    expect(names(nodes, watchOrder(nodes, new Set()))).toEqual([
      "(root)",
      "alpha",
      "mid",
      "zeta",
      "alpha/y",
      "zeta/x",
    ]);
  });

  test("an open document's directory and its ancestors first, then source directories", () => {
    const nodes = tree({
      a: {},
      "a/b": {},
      "a/b/c": {},
      "a/b/c/doc": {},
      lib: {},
      "lib/src": { source: true },
      vendor: {},
      "vendor/x": {},
    });
    const order = names(nodes, watchOrder(nodes, new Set(["/r/a/b/c/doc"])));
    expect(order).toEqual([
      "(root)",
      "a",
      "a/b",
      "a/b/c",
      "a/b/c/doc",
      "lib",
      "lib/src",
      "vendor",
      "vendor/x",
    ]);
  });

  test("never a directory before its parent; unwatchable ones left out", () => {
    const nodes = tree({
      z: {},
      "z/deep": { source: true },
      long: { deep: 900 },
      tagged: { cache: true },
    });
    const order = watchOrder(nodes, new Set());
    expect(names(nodes, order)).toEqual(["(root)", "z", "z/deep"]);
    for (const [pos, i] of order.entries()) {
      const parent = nodes[i]?.parent ?? -1;
      if (parent >= 0) expect(order.indexOf(parent)).toBeLessThan(pos);
    }
  });
});

describe("unwatchedSubtrees", () => {
  test("each topmost unwatched directory with every directory below it, deep ones included", () => {
    const nodes = tree({
      a: {},
      "a/b": {},
      "a/b/c": {},
      "a/b/c/long": { deep: 2000 },
      d: {},
      "d/e": {},
      tagged: { cache: true },
    });
    const watched = new Set(["/r", "/r/a", "/r/d"]);
    expect(unwatchedSubtrees(nodes, (i) => watched.has(nodes[i]?.path ?? ""))).toEqual([
      { path: "/r/a/b", count: 2002 },
      { path: "/r/d/e", count: 1 },
    ]);
  });
});
