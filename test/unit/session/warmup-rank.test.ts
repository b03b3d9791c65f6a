/** SPEC §3.3 `project_files`: which matching file represents the project, pure (projects: workspace/tsconfig.test.ts). */
import { describe, expect, test } from "bun:test";
import { compareRanks, isBestRank, warmupRank } from "../../../src/session/warmup-rank.ts";

describe("warmupRank", () => {
  const order = (files: [string, boolean, number][]) =>
    files
      .map(([rel, inc, lang]) => ({ rel, rank: warmupRank(rel, inc, lang) }))
      .sort((a, b) => compareRanks(a.rank, b.rank))
      .map((f) => f.rel);

  test("included first; then not a declaration, not a tool's configuration, the first language", () => {
    expect(
      order([
        ["compile.d.ts", false, 0],
        ["eslint.config.js", false, 2],
        ["src/a.js", true, 2],
        ["src/b.ts", true, 0],
        ["src/types.d.ts", true, 0],
        ["vite.config.ts", true, 0],
      ]),
    ).toEqual([
      "src/b.ts",
      "src/a.js",
      "vite.config.ts",
      "src/types.d.ts",
      "eslint.config.js",
      "compile.d.ts",
    ]);
  });

  test("outside a project: an entry point, then the shallowest", () => {
    expect(
      order([
        ["src/compile.ts", false, 0],
        ["src/v4/index.ts", false, 0],
        ["src/index.ts", false, 0],
        ["index.js", false, 2],
      ]),
    ).toEqual(["src/index.ts", "src/v4/index.ts", "src/compile.ts", "index.js"]);
  });

  test("only an included source file of the first language is the best a file can be", () => {
    expect(isBestRank(warmupRank("src/a.ts", true, 0))).toBe(true);
    expect(isBestRank(warmupRank("src/index.ts", false, 0))).toBe(false);
  });
});
