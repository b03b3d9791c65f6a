/**
 * tsconfig.json and jsconfig.json as tsserver reads them (SPEC §3.3 `project_files`, §4.3
 * `outside_program`), pure: which files a project includes, and which project holds a file.
 */
import { describe, expect, test } from "bun:test";
import { type Budget, MATCH_BUDGET, pathMatches } from "../../../src/workspace/spec-match.ts";
import {
  CONFIG_DIR,
  parseProject,
  projectIncludes,
  projectOwner,
  stripJsonComments,
} from "../../../src/workspace/tsconfig.ts";

const budget = (): Budget => ({ left: MATCH_BUDGET });
const includes = (file: string, text: string, rel: string) =>
  projectIncludes(parseProject(file, text), rel, budget());

/** A workspace of project files (path → text): which project holds `rel`. */
function owner(tree: Record<string, string>, rel: string) {
  const read = (r: string) => tree[r];
  const load = (f: string) => (tree[f] === undefined ? null : parseProject(f, tree[f], read));
  return projectOwner(rel, load, budget());
}

describe("which files a project includes", () => {
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
    expect(includes("jsconfig.json", '{"compilerOptions":{"allowJs":false}}', "src/a.js")).toBe(
      false,
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

  test("wildcards pass over dot names and package folders; a named one is included", () => {
    expect(includes("tsconfig.json", "{}", ".storybook/main.ts")).toBe(false);
    expect(includes("tsconfig.json", "{}", "src/.a.ts")).toBe(false);
    expect(includes("tsconfig.json", "{}", "node_modules/p/index.ts")).toBe(false);
    expect(includes("tsconfig.json", "{}", "src/bower_components/x.ts")).toBe(false);
    const named = '{"include": [".storybook/**/*"]}';
    expect(includes("tsconfig.json", named, ".storybook/main.ts")).toBe(true);
    // a last segment with a dot names a file, as tsserver reads it
    expect(includes("tsconfig.json", '{"include": [".storybook"]}', ".storybook/a.ts")).toBe(false);
    expect(includes("tsconfig.json", '{"include": ["**/.*.ts"]}', "src/.a.ts")).toBe(true);
  });

  test("a wildcard never takes in the dot of a trailing .min.js", () => {
    expect(includes("jsconfig.json", "{}", "lib/a.min.js")).toBe(false);
    expect(includes("jsconfig.json", "{}", "lib/a.js")).toBe(true);
    expect(includes("jsconfig.json", '{"include": ["lib/*.min.js"]}', "lib/a.min.js")).toBe(true);
  });

  test("exclude matches a directory and what is below it, dot names too", () => {
    const spec = '{"exclude": ["**/*.test.ts", "**/.gen"]}';
    expect(includes("tsconfig.json", spec, "src/a.test.ts")).toBe(false);
    expect(
      includes("tsconfig.json", '{"include": ["**/.*/*"], "exclude": ["**/.gen"]}', "a/.gen/x.ts"),
    ).toBe(false);
    expect(includes("tsconfig.json", spec, "src/a.ts")).toBe(true);
  });

  test("without exclude the output directories are left out; an exclude replaces that", () => {
    const out = '{"compilerOptions": {"outDir": "dist", "declarationDir": "types"}}';
    expect(includes("tsconfig.json", out, "dist/a.d.ts")).toBe(false);
    expect(includes("tsconfig.json", out, "types/a.d.ts")).toBe(false);
    expect(includes("tsconfig.json", out, "src/a.ts")).toBe(true);
    const own = '{"compilerOptions": {"outDir": "dist"}, "exclude": []}';
    expect(includes("tsconfig.json", own, "dist/a.d.ts")).toBe(true);
  });

  test("files lists files; with files alone nothing else is included", () => {
    const spec = '{"files": ["src/main.ts", "../outside.ts"]}';
    expect(includes("tsconfig.json", spec, "src/main.ts")).toBe(true);
    expect(includes("tsconfig.json", spec, "src/other.ts")).toBe(false);
  });

  test("an include ending in ** is no include (tsserver drops it)", () => {
    expect(includes("tsconfig.json", '{"include": ["src/**"]}', "src/a.ts")).toBe(false);
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

describe("extends", () => {
  const tree = {
    "configs/base.json": '{"include": ["../src"], "compilerOptions": {"allowJs": true}}',
    "configs/dir.json": `{"include": ["${CONFIG_DIR}/lib"]}`,
    "node_modules/@acme/tsconfig/tsconfig.json": '{"compilerOptions": {"allowJs": true}}',
  };
  const read = (r: string) => (tree as Record<string, string>)[r];
  const spec = (text: string) => parseProject("tsconfig.json", text, read);

  test("what the base says, its paths from its own directory; the file's own keys win", () => {
    const s = spec('{"extends": "./configs/base.json"}');
    expect(projectIncludes(s, "src/a.js", budget())).toBe(true);
    expect(projectIncludes(s, "other/a.ts", budget())).toBe(false);
    const own = spec('{"extends": "./configs/base", "include": ["other"]}');
    expect(projectIncludes(own, "other/a.js", budget())).toBe(true);
    expect(projectIncludes(own, "src/a.ts", budget())).toBe(false);
  });

  test("the configDir template is the directory of the file being read; a package base is found", () => {
    expect(projectIncludes(spec('{"extends": "./configs/dir.json"}'), "lib/a.ts", budget())).toBe(
      true,
    );
    const pkg = spec('{"extends": "@acme/tsconfig/tsconfig.json"}');
    expect(projectIncludes(pkg, "src/a.js", budget())).toBe(true);
    expect(projectIncludes(spec('{"extends": "@acme/tsconfig"}'), "src/a.js", budget())).toBe(true);
  });

  test("a chain that loops ends", () => {
    const loop = { "a.json": '{"extends": "./b.json"}', "b.json": '{"extends": "./a.json"}' };
    const s = parseProject(
      "tsconfig.json",
      '{"extends": "./a.json"}',
      (r) => (loop as Record<string, string>)[r],
    );
    expect(projectIncludes(s, "src/a.ts", budget())).toBe(true);
  });
});

describe("which project holds a file", () => {
  test("none: no project file in its directory or above", () => {
    expect(owner({}, "src/index.ts")).toEqual({ owner: null, passed: [] });
    expect(owner({ "other/tsconfig.json": "{}" }, "src/index.ts").owner).toBeNull();
  });

  test("the nearest that includes it, then the ones above; tsconfig.json before jsconfig.json", () => {
    const tree = { "pkg/tsconfig.json": '{"include": ["src"]}', "tsconfig.json": "{}" };
    expect(owner(tree, "pkg/src/a.ts")).toEqual({ owner: "pkg/tsconfig.json", passed: [] });
    expect(owner(tree, "pkg/test/a.ts")).toEqual({
      owner: "tsconfig.json",
      passed: ["pkg/tsconfig.json"],
    });
    const both = { "tsconfig.json": '{"include": ["src"]}', "jsconfig.json": "{}" };
    expect(owner(both, "scripts/a.js").owner).toBe("jsconfig.json");
  });

  test("a solution's references are looked into, and theirs", () => {
    const tree = {
      "tsconfig.json": '{"files": [], "references": [{"path": "./packages/a"}]}',
      "packages/a/tsconfig.json":
        '{"include": ["src"], "references": [{"path": "../b/tsconfig.json"}]}',
      "packages/b/tsconfig.json": '{"include": ["lib"]}',
    };
    expect(owner(tree, "packages/a/src/x.ts").owner).toBe("packages/a/tsconfig.json");
    expect(owner(tree, "packages/b/lib/x.ts").owner).toBe("packages/b/tsconfig.json");
    expect(owner(tree, "packages/b/src/x.ts")).toEqual({
      owner: null,
      passed: ["packages/b/tsconfig.json", "tsconfig.json", "packages/a/tsconfig.json"],
    });
  });

  test("disableSolutionSearching stops the search; a node_modules directory is a boundary", () => {
    const tree = {
      "pkg/tsconfig.json":
        '{"include": ["src"], "compilerOptions": {"disableSolutionSearching": true}}',
      "tsconfig.json": "{}",
    };
    expect(owner(tree, "pkg/test/a.ts").owner).toBeNull();
    expect(
      owner(
        { "tsconfig.json": '{"include": ["**/*", "node_modules/**/*"]}' },
        "node_modules/p/a.ts",
      ).owner,
    ).toBeNull();
  });
});
