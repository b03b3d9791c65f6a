/** Path patterns of project configuration files, matched as their servers match them, pure. */
import { describe, expect, test } from "bun:test";
import {
  MATCH_BUDGET,
  type MatchMode,
  pathMatches,
  specSegments,
} from "../../../src/workspace/spec-match.ts";

const matches = (pattern: string, path: string, mode: MatchMode) =>
  pathMatches(
    pattern === "" ? [] : pattern.split("/"),
    path.split("/"),
    { left: MATCH_BUDGET },
    mode,
  );

describe("pathMatches", () => {
  test.each([
    ["src/**/*.ts", "src/a/b.ts", "files", true],
    ["src/**/*.ts", "src/.a/b.ts", "files", false],
    ["src/**/*.ts", "src/.a/b.ts", "prefix", true],
    ["**/*", "node_modules/a.ts", "files", false],
    ["node_modules/*", "node_modules/a.ts", "files", true],
    ["src/*", "src/a.min.js", "files", false],
    ["src/*.min.js", "src/a.min.js", "files", true],
    ["src/?.ts", "src/a.ts", "files", true],
    ["src/?.ts", "src/.ts", "files", false],
    ["src/*.ts", "src/.ts", "files", true],
    ["src", "src/a/b.ts", "prefix", true],
    ["src", "srcx/a.ts", "prefix", false],
    ["**/gen", "a/b/gen/x.py", "prefix", true],
    ["", "a/b.py", "prefix", true],
    ["src", "src/a.ts", "files", false],
  ] as const)("%s against %s (%s): %p", (pattern, path, mode, expected) => {
    expect(matches(pattern, path, mode)).toBe(expected);
  });
});

describe("specSegments", () => {
  test("relative to the project file's directory; a directory stands for what is below it", () => {
    expect(specSegments("pkg", "./src", true)).toEqual(["pkg", "src", "**", "*"]);
    expect(specSegments("pkg", "../lib/*.ts", true)).toEqual(["lib", "*.ts"]);
    expect(specSegments("pkg", "src", false)).toEqual(["pkg", "src"]);
    expect(specSegments("", ".", false)).toEqual([]);
  });

  test("leaving the root, or absolute: null", () => {
    expect(specSegments("", "../x", true)).toBeNull();
    expect(specSegments("a", "/abs/x", true)).toBeNull();
  });
});
