/** SPEC §3.3 `project_files`: which matching file represents the project, pure. */
import { describe, expect, test } from "bun:test";
import {
  type Budget,
  compareRanks,
  isBestRank,
  MATCH_BUDGET,
  parseProject,
  pathMatches,
  projectIncludes,
  stripJsonComments,
  warmupRank,
} from "../../../src/session/warmup-rank.ts";

const budget = (): Budget => ({ left: MATCH_BUDGET });
const includes = (file: string, text: string, rel: string) =>
  projectIncludes(parseProject(file, text), rel, budget());

describe("project files", () => {
  test("JSON with comments and trailing commas parses; strings keep their slashes", () => {
    const text = '{\n  // a comment\n  "include": ["src/**/*", "a//b",], /* more */\n}';
    expect(JSON.parse(stripJsonComments(text))).toEqual({ include: ["src/**/*", "a//b"] });
  });

  test("no files and no include: everything below the project file (TypeScript only)", () => {
    expect(includes("tsconfig.json", "{}", "src/a.ts")).toBe(true);
    expect(includes("pkg/tsconfig.json", "{}", "pkg/deep/a.tsx")).toBe(true);
    expect(includes("pkg/tsconfig.json", "{}", "other/a.ts")).toBe(false);
    expect(includes("tsconfig.json", "{}", "eslint.config.js")).toBe(false);
  });

  test("JavaScript belongs to a jsconfig.json, or to a tsconfig.json with allowJs", () => {
    expect(includes("jsconfig.json", "{}", "src/a.js")).toBe(true);
    expect(includes("tsconfig.json", '{"compilerOptions":{"allowJs":true}}', "src/a.js")).toBe(
      true,
    );
  });

  test("include: a directory means everything below it; wildcards; exclude wins over include", () => {
    const spec = '{"include": ["src", "lib/*.ts", "./test/**/*.spec.ts"], "exclude": ["src/gen"]}';
    expect(includes("tsconfig.json", spec, "src/a/b.ts")).toBe(true);
    expect(includes("tsconfig.json", spec, "src/gen/x.ts")).toBe(false);
    expect(includes("tsconfig.json", spec, "lib/x.ts")).toBe(true);
    expect(includes("tsconfig.json", spec, "lib/deep/x.ts")).toBe(false);
    expect(includes("tsconfig.json", spec, "test/u/a.spec.ts")).toBe(true);
    expect(includes("tsconfig.json", spec, "compile.d.ts")).toBe(false);
  });

  test("files lists files; with files alone nothing else is included", () => {
    const spec = '{"files": ["src/main.ts", "../outside.ts"]}';
    expect(includes("tsconfig.json", spec, "src/main.ts")).toBe(true);
    expect(includes("tsconfig.json", spec, "src/other.ts")).toBe(false);
  });

  test("a malformed project file includes everything below it", () => {
    expect(includes("tsconfig.json", "{ not json", "src/a.ts")).toBe(true);
    expect(includes("tsconfig.json", undefined as unknown as string, "src/a.ts")).toBe(true);
  });

  test("matching spends from a budget; spent, a file counts as included", () => {
    const spent: Budget = { left: 0 };
    expect(pathMatches(["**", "*a*a*a*a*b"], ["x", "a".repeat(200)], spent)).toBe(true);
    const left = budget();
    expect(pathMatches(["**", "*a*a*a*a*b"], ["x", "a".repeat(200)], left)).toBe(false);
    expect(left.left).toBeLessThan(MATCH_BUDGET);
  });
});

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
