/**
 * Dependencies outside the root the configuration names (SPEC §5.3), found from the files
 * a workspace holds: each configuration format, paths resolved, what lies inside the root
 * or in the host's system directories left out.
 */
import { describe, expect, test } from "bun:test";
import {
  byPath,
  type OutsideDependency,
  outsideDependencies,
  reachOf,
  withoutComments,
} from "../../../src/workspace/outside-deps.ts";

const ROOT = "/w/proj";
const deps = (
  files: Record<string, string>,
  dbDirs: string[] = [],
  exists: (abs: string) => boolean = () => false,
) =>
  outsideDependencies(ROOT, (rel) => files[rel], dbDirs, exists).map(
    (d) => `${d.kind} ${d.path} (${d.source})`,
  );

describe("outsideDependencies", () => {
  test("a compile database: -I, -isystem, -iquote, -include outside the root; system and inside ones left out", () => {
    const db = [
      {
        directory: "/w/proj/build",
        file: "/w/proj/a.c",
        arguments: [
          "cc",
          "-I../../common/include",
          "-I",
          "/opt/lib/inc",
          "-isystem/usr/include/x",
          "-Iinc",
          "-include",
          "../../cfg.h",
          "-c",
          "a.c",
        ],
      },
      { directory: "/w/proj", file: "b.c", command: 'cc -iquote "/w/other dir" -DX=1 b.c' },
    ];
    expect(deps({ "build/compile_commands.json": JSON.stringify(db) }, ["build"])).toEqual([
      "tree /w/common/include (compile_commands.json -I)",
      "tree /opt/lib/inc (compile_commands.json -I)",
      "file /w/cfg.h (compile_commands.json -include)",
      "tree /w/other dir (compile_commands.json -iquote)",
    ]);
  });

  test("tsconfig extends (a path, with comments and trailing commas) and references; a package name is no path", () => {
    const tsconfig = `{
      // the shared base
      "extends": ["../tsconfig.base", "@tsconfig/node20/tsconfig.json"],
      "references": [{ "path": "../lib" }, { "path": "./inner" },],
    }`;
    expect(deps({ "tsconfig.json": tsconfig })).toEqual([
      "file /w/tsconfig.base.json (tsconfig.json extends)",
      "tree /w/lib (tsconfig.json references)",
    ]);
  });

  test("pyright: extends and extraPaths, in pyrightconfig.json and pyproject.toml", () => {
    const pyproject =
      '[tool.pyright]\nextends = "../base/pyright.json"\nextraPaths = ["../vendored", "src"]\n';
    expect(
      deps({ "pyrightconfig.json": '{"extends": "../strict.json"}', "pyproject.toml": pyproject }),
    ).toEqual([
      "file /w/strict.json (pyrightconfig.json extends)",
      "file /w/base/pyright.json (pyproject.toml [tool.pyright] extends)",
      "tree /w/vendored (pyproject.toml [tool.pyright] extraPaths)",
    ]);
  });

  test("go: replace with a local path, go.work use", () => {
    const mod =
      "module m\n\nreplace example.com/x => ../x\nreplace (\n\texample.com/y v1.0.0 => ../y\n\texample.com/z => example.com/z2 v1.2.0\n)\n";
    const work = "go 1.22\n\nuse (\n\t.\n\t../tools\n)\n";
    expect(deps({ "go.mod": mod, "go.work": work })).toEqual([
      "tree /w/x (go.mod replace)",
      "tree /w/y (go.mod replace)",
      "tree /w/tools (go.work use)",
    ]);
  });

  test("cargo: path dependencies, and the configuration cargo reads above the root", () => {
    const cargo =
      '[package]\nname = "p"\n[dependencies]\nserde = "1"\ncommon = { path = "../common" }\n[dev-dependencies]\nt = { path = "tests/t" }\n';
    const exists = (p: string) => p === "/w/.cargo/config.toml";
    expect(deps({ "Cargo.toml": cargo }, [], exists)).toEqual([
      "tree /w/common (Cargo.toml path dependency)",
      "file /w/.cargo/config.toml (cargo configuration above the root)",
    ]);
  });

  test("nothing readable, nothing named; each path once", () => {
    expect(deps({})).toEqual([]);
    expect(deps({ "pyrightconfig.json": "{ not json", "Cargo.toml": "[[[" })).toEqual([]);
    const twice = '{"extends": "../base.json", "extraPaths": ["../base.json"]}';
    expect(deps({ "pyrightconfig.json": twice })).toEqual([
      "file /w/base.json (pyrightconfig.json extends)",
    ]);
  });
});

describe("withoutComments", () => {
  test("comments and trailing commas go; strings keep what looks like them", () => {
    const text = '{"a": "// not a comment", /* c */ "b": [1, 2,], // end\n "c": "x\\"/*y*/"}';
    expect(JSON.parse(withoutComments(text))).toEqual({
      a: "// not a comment",
      b: [1, 2],
      c: 'x"/*y*/',
    });
  });
});

describe("byPath: one watch per path, seeing all that is named there", () => {
  const at = (kind: OutsideDependency["kind"], more: Partial<OutsideDependency> = {}) => ({
    path: "/w/shared",
    kind,
    source: `${kind} source`,
    ...more,
  });
  test("paths naming ../lib/v2/* (not there yet) and ../lib/*: the tree, awaiting v2", () => {
    const awaited = at("entries", { names: /^v2$/, awaits: "/w/shared/v2" });
    for (const order of [
      [awaited, at("tree")],
      [at("tree"), awaited],
    ]) {
      expect(byPath(order)).toEqual([
        { path: "/w/shared", kind: "tree", source: "tree source", awaits: "/w/shared/v2" },
      ]);
    }
  });
  test("entries for some names and for others: both names; for all: every entry", () => {
    const [both] = byPath([at("entries", { names: /^a$/ }), at("entries", { names: /^b$/ })]);
    expect(["a", "b", "c"].map((n) => both?.names?.test(n))).toEqual([true, true, false]);
    expect(byPath([at("entries", { names: /^a$/ }), at("entries")])[0]?.names).toBeUndefined();
  });
  test("else the first named stands: a file and a directory, two guesses, whose own it is", () => {
    expect(byPath([at("file"), at("tree")])).toEqual([at("file")]);
    // a tree guessed for a module not there yet does not widen entries awaited there
    const guessed = at("tree", { awaits: "/w/shared/mod" });
    const awaited = at("entries", { names: /^x$/, awaits: "/w/shared/x" });
    expect(byPath([awaited, guessed])).toEqual([awaited]);
    expect(byPath([at("tree", { ownRead: true }), at("tree")])).toEqual([
      at("tree", { ownRead: true }),
    ]);
  });
  test("reachOf tells a wider watch from the same one", () => {
    expect(reachOf(at("tree"))).not.toBe(reachOf(at("entries", { names: /^v2$/ })));
    expect(reachOf(at("tree", { source: "other" }))).toBe(reachOf(at("tree")));
  });
});
