/**
 * Dependencies point one way (docs/ARCHITECTURE.md): no file of src/ reaches itself through
 * its imports, no folder does either (a top-level file counts as its own folder), and no
 * source file grows past 400 lines (one module per concern).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  cyclePath,
  fileGraph,
  findCycles,
  folderOf,
  foldGraph,
  type Graph,
  importSpecifiers,
} from "../support/import-graph.ts";

const SRC = join(import.meta.dir, "..", "..", "src");
const MAX_LINES = 400;

function graphOf(edges: Record<string, string[]>): Graph {
  const g: Graph = new Map();
  for (const [from, to] of Object.entries(edges)) {
    g.set(from, new Set(to));
    for (const t of to) if (!g.has(t)) g.set(t, new Set());
  }
  return g;
}

/** Each cycle as one import path through it, with every member when the path misses some. */
function describeCycles(graph: Graph): string[] {
  return findCycles(graph).map((c) => {
    const path = cyclePath(graph, c);
    const missed = c.filter((m) => !path.split(" → ").includes(m));
    return missed.length === 0 ? path : `${path} (also in the cycle: ${missed.join(", ")})`;
  });
}

describe("the cycle finder", () => {
  test("an acyclic graph has no cycle", () => {
    expect(findCycles(graphOf({ a: ["b", "c"], b: ["c"], c: [] }))).toEqual([]);
  });

  test("finds a two-file cycle, a longer one and a self-import, each once", () => {
    const g = graphOf({
      a: ["b"],
      b: ["a", "c"],
      c: ["d"],
      d: ["e"],
      e: ["c"],
      f: ["f"],
      g: ["a"],
    });
    expect(findCycles(g)).toEqual([["a", "b"], ["c", "d", "e"], ["f"]]);
    expect(describeCycles(g)).toEqual(["a → b → a", "c → d → e → c", "f → f"]);
  });

  test("folding files to folders turns a cross-folder back edge into a folder cycle", () => {
    const files = graphOf({
      "config/schema.ts": ["errors.ts"],
      "config/check.ts": ["process/version.ts", "config/schema.ts"],
      "process/version.ts": ["config/schema.ts"],
    });
    expect(findCycles(files)).toEqual([]);
    const folders = foldGraph(files, folderOf);
    expect(folders.get("config")).toEqual(new Set(["errors.ts", "process"]));
    expect(findCycles(folders)).toEqual([["config", "process"]]);
  });
});

describe("import specifiers", () => {
  test("static, type-only, multi-line, re-export, side-effect and dynamic imports", () => {
    const source = [
      'import { a } from "./a.ts";',
      'import type { B } from "../b.ts";',
      "import {",
      "  c,",
      "  d,",
      '} from "./c.ts";',
      'export { e } from "./e.ts";',
      'export type { F } from "./f.ts";',
      'import "./g.ts";',
      'const h = await import("./h.ts");',
      "// a comment saying from './x.ts' is not an import",
      'export const note = "text from somewhere";',
    ].join("\n");
    expect(importSpecifiers(source).sort()).toEqual(
      ["./a.ts", "../b.ts", "./c.ts", "./e.ts", "./f.ts", "./g.ts", "./h.ts"].sort(),
    );
  });
});

describe("src/", () => {
  const files = fileGraph(SRC);

  test("the graph covers src/ (sanity: known files and an edge)", () => {
    expect(files.has("main.ts")).toBe(true);
    expect(files.get("serve.ts")?.has("bridge.ts")).toBe(true);
    expect(files.size).toBeGreaterThan(50);
  });

  test("no file-level import cycle", () => {
    expect(describeCycles(files)).toEqual([]);
  });

  test("no folder-level import cycle", () => {
    expect(describeCycles(foldGraph(files, folderOf))).toEqual([]);
  });

  const folders = foldGraph(files, folderOf);
  test("configuration is at the bottom: config/ imports nothing of src/ but errors.ts", () => {
    expect([...(folders.get("config") ?? [])]).toEqual(["errors.ts"]);
  });

  test("apply/ and gate/ take narrow interfaces, not the bridge or a session", () => {
    for (const folder of ["apply", "gate"]) {
      const out = [...(folders.get(folder) ?? [])];
      expect({
        folder,
        bridge: out.includes("bridge.ts"),
        session: out.includes("session"),
      }).toEqual({ folder, bridge: false, session: false });
    }
  });

  test(`no source file over ${MAX_LINES} lines`, () => {
    const long = [...files.keys()]
      .map((f) => ({ f, lines: readFileSync(join(SRC, f), "utf8").split("\n").length - 1 }))
      .filter((x) => x.lines > MAX_LINES)
      .map((x) => `${x.f}: ${x.lines}`);
    expect(long).toEqual([]);
  });
});
