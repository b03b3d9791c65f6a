/** Whether a file lies outside its server's whole program, and why (SPEC §4.3 `outside_program`), pure. */
import { describe, expect, test } from "bun:test";
import { outsideReason, type ProgramInputs } from "../../../src/workspace/program-rules.ts";
import { pythonProgram } from "../../../src/workspace/pyright-config.ts";
import { MATCH_BUDGET } from "../../../src/workspace/spec-match.ts";
import { parseProject } from "../../../src/workspace/tsconfig.ts";

/** Inputs over a tree of configuration files; the database names `db` files under /w. */
function inputs(tree: Record<string, string>, db: string[] | null = null): ProgramInputs {
  return {
    project: (f) => (tree[f] === undefined ? null : parseProject(f, tree[f], (r) => tree[r])),
    database: () =>
      db === null ? null : { name: "build/compile_commands.json", files: new Set(db) },
    spellings: (rel) => [`/link/${rel}`, `/w/${rel}`],
    python: () => pythonProgram((r) => tree[r]),
    isVenv: () => false,
  };
}

const budget = () => ({ left: MATCH_BUDGET });

describe("tsconfig: a project includes the file", () => {
  test.each([
    [
      "no project file at all",
      {},
      "src/index.ts",
      "in no project (no tsconfig.json or jsconfig.json in its directory or above)",
    ],
    ["a tsconfig.json that includes it", { "tsconfig.json": "{}" }, "src/index.ts", null],
    [
      "one that does not",
      { "tsconfig.json": '{"include": ["lib"]}' },
      "src/index.ts",
      "in no project (tsconfig.json does not include it)",
    ],
    [
      "JavaScript without allowJs",
      { "tsconfig.json": "{}" },
      "src/a.js",
      "in no project (tsconfig.json does not include it; JavaScript needs allowJs)",
    ],
    ["JavaScript in a jsconfig.json", { "jsconfig.json": "{}" }, "src/a.js", null],
    [
      "one above that does",
      { "src/tsconfig.json": '{"files": []}', "tsconfig.json": "{}" },
      "src/a.ts",
      null,
    ],
    [
      "two that do not",
      { "src/tsconfig.json": '{"files": []}', "tsconfig.json": '{"files": []}' },
      "src/a.ts",
      "in no project (src/tsconfig.json, tsconfig.json do not include it)",
    ],
  ])("%s", (_, tree, rel, cause) => {
    const why = outsideReason("tsconfig", rel, inputs(tree), budget());
    if (cause === null) expect(why).toBeNull();
    else
      expect(why).toBe(
        `${cause}: the server sees only this file and what it imports: references, callers and symbols in other files may be missing`,
      );
  });
});

describe("compile_commands: the database names the file", () => {
  test.each([
    ["named by the realpath", "main.c", ["/w/main.c"], false],
    ["named through the configured root", "main.c", ["/link/main.c"], false],
    ["not named", "orphan.c", ["/w/main.c"], true],
    ["C++ not named", "x/y.cpp", ["/w/main.c"], true],
    ["a header is never marked", "geometry.h", ["/w/main.c"], false],
    ["no database to read", "orphan.c", null, false],
  ])("%s", (_, rel, db, outside) => {
    const why = outsideReason("compile_commands", rel, inputs({}, db), budget());
    if (!outside) expect(why).toBeNull();
    else
      expect(why).toStartWith(
        "not in build/compile_commands.json: the server guesses its compile flags",
      );
  });
});

describe("pyrightconfig: include, exclude, virtual environments", () => {
  test("an excluded file, and one taken in", () => {
    const tree = { "pyrightconfig.json": '{"exclude": ["scripts"]}' };
    expect(outsideReason("pyrightconfig", "scripts/tool.py", inputs(tree), budget())).toStartWith(
      'excluded by pyrightconfig.json\'s exclude "scripts": the server analyses it only while it is open',
    );
    expect(outsideReason("pyrightconfig", "app.py", inputs(tree), budget())).toBeNull();
  });
});
