import { describe, expect, test } from "bun:test";
import {
  beforeGlob,
  climb,
  configurationPaths,
  escapingSourcePaths,
} from "../../../src/workspace/outside-paths.ts";

describe("configurationPaths: any key, any flag", () => {
  const cases: [string, string, string[]][] = [
    [
      "compile_flags.txt",
      "-I../common\n-DX=1\n-isystem/opt/sdk/include\n",
      ["../common", "/opt/sdk/include"],
    ],
    [".clangd", "CompileFlags:\n  Add: [-I/work/outside/inc, -Wall]\n", ["/work/outside/inc"]],
    [
      "tsconfig include and paths",
      '{"include": ["src", "../../lib/**/*.ts"], "compilerOptions": {"paths": {"@x/*": ["../x/*"]}}}',
      ["../../lib", "../x"],
    ],
    [
      "pyright execution environments",
      '{"executionEnvironments": [{"root": "src", "extraPaths": ["../vendor"]}], "stubPath": "../stubs", "venvPath": ".."}',
      ["../vendor", "../stubs", ".."],
    ],
    [
      "package.json file: dependency",
      '{"dependencies": {"a": "file:../a", "b": "^1.0.0"}}',
      ["../a"],
    ],
    ["Cargo path", '[dependencies]\nx = { path = "../x" }\n', ["../x"]],
    ["go.mod replace", "replace example.com/m => ../m\n", ["../m"]],
    ["inner climbs", '{"outDir": "build/../../out"}', ["build/../../out"]],
    ["comments and lone slashes", "require x v1 // indirect\n/* ../not */ //../x /", ["../not"]],
    [
      "tsconfig configDir",
      '{"compilerOptions": {"typeRoots": ["$CD/../types"], "outDir": "$CD/dist"}}'.replaceAll(
        "$CD",
        ["$", "{configDir}"].join(""),
      ),
      ["./../types"],
    ],
    ["nothing that leaves", '{"include": ["src/**/*.ts"], "url": "https://example.com/a/b"}', []],
  ];
  for (const [name, text, want] of cases) {
    test(name, () => expect(configurationPaths(text)).toEqual(want));
  }
});

describe("escapingSourcePaths: quoted relative paths that climb past the root", () => {
  test("a C include two levels up from one level down leaves; one level up does not", () => {
    const text = '#include "../../common/cfg.h"\n#include "../lib.h"\n#include <../../sys/x.h>\n';
    expect(escapingSourcePaths(text, 1)).toEqual(["../../common/cfg.h", "../../sys/x.h"]);
    expect(escapingSourcePaths(text, 2)).toEqual([]);
  });
  test("TypeScript imports in any quote; a file at the root leaves with one step", () => {
    const text = "import { v } from '../outside/mod';\nconst m = await import(`../x`);\n";
    expect(escapingSourcePaths(text, 0)).toEqual(["../outside/mod", "../x"]);
  });
  test("text without ../ costs one search and finds nothing", () => {
    expect(escapingSourcePaths('import a from "./a";', 0)).toEqual([]);
  });
});

test("configurationPaths above the root: every ./ path, its directory being outside", () => {
  const goWork = "go 1.21\n\nuse (\n\t./proj\n\t./dep\n)\n// example.com/x\n";
  expect(configurationPaths(goWork)).toEqual([]);
  expect(configurationPaths(goWork, true)).toEqual(["./proj", "./dep"]);
});

test("climb: the highest point a relative path reaches", () => {
  expect(climb("../../x")).toBe(2);
  expect(climb("a/../../x")).toBe(1);
  expect(climb("./a/b")).toBe(0);
  expect(climb("../a/../../b")).toBe(2);
});

test("beforeGlob: a glob's directory", () => {
  expect(beforeGlob("../x/**/*.h")).toBe("../x");
  expect(beforeGlob("../x/y.h")).toBe("../x/y.h");
  expect(beforeGlob("*.h")).toBe(".");
  expect(beforeGlob("/*")).toBe("/");
});
