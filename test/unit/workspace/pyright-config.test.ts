/** Which files pyright takes into its program (SPEC §4.3 `outside_program`), pure. */
import { describe, expect, test } from "bun:test";
import { pythonExclusion, pythonProgram } from "../../../src/workspace/pyright-config.ts";
import { MATCH_BUDGET } from "../../../src/workspace/spec-match.ts";

/** Why `rel` is left out, given the workspace's configuration files and its venv directories. */
function why(tree: Record<string, string>, rel: string, venvs: string[] = []): string | null {
  const program = pythonProgram((r) => tree[r]);
  return pythonExclusion(program, rel, (d) => venvs.includes(d), { left: MATCH_BUDGET });
}

describe("pyright's program", () => {
  test("no configuration: the root, without its default excludes and virtual environments", () => {
    expect(why({}, "app.py")).toBeNull();
    expect(why({}, "pkg/mod.pyi")).toBeNull();
    expect(why({}, ".venv/lib/site.py")).toBe('excluded by the server\'s default exclude "**/.*"');
    expect(why({}, "web/node_modules/x.py")).toContain('"**/node_modules"');
    expect(why({}, "env/lib/x.py", ["env"])).toBe(
      "inside a virtual environment (env), which is left out",
    );
    expect(why({}, "README.md")).toBeNull();
  });

  test("pyrightconfig.json: include and exclude, directories and what lies below them", () => {
    const tree = {
      "pyrightconfig.json":
        '{\n // comments are allowed\n "include": ["src", "tools/*.py"], "exclude": ["src/gen", "**/*_pb2.py"]}',
    };
    expect(why(tree, "src/a/b.py")).toBeNull();
    expect(why(tree, "tools/run.py")).toBeNull();
    expect(why(tree, "tests/test_a.py")).toBe(
      'not under pyrightconfig.json\'s include ("src", "tools/*.py")',
    );
    expect(why(tree, "src/gen/x.py")).toBe('excluded by pyrightconfig.json\'s exclude "src/gen"');
    expect(why(tree, "src/api_pb2.py")).toContain('"**/*_pb2.py"');
    // the default excludes hold beside the configured ones
    expect(why(tree, "src/.hidden/x.py")).toContain('"**/.*"');
  });

  test("pyproject.toml's [tool.pyright] when there is no pyrightconfig.json; that one wins", () => {
    const toml = '[tool.pyright]\nexclude = ["scripts"]\n';
    expect(why({ "pyproject.toml": toml }, "scripts/x.py")).toBe(
      'excluded by pyproject.toml\'s exclude "scripts"',
    );
    expect(why({ "pyproject.toml": "[project]\nname = 'x'\n" }, "scripts/x.py")).toBeNull();
    const both = { "pyproject.toml": toml, "pyrightconfig.json": "{}" };
    expect(why(both, "scripts/x.py")).toBeNull();
  });

  test("extends: the base's keys, from its own directory, unless the file sets them", () => {
    const tree = {
      "pyrightconfig.json": '{"extends": "config/base.json"}',
      "config/base.json": '{"exclude": ["../legacy"]}',
    };
    expect(why(tree, "legacy/x.py")).toContain('"../legacy"');
    expect(why(tree, "src/x.py")).toBeNull();
  });

  test("a malformed configuration takes the root", () => {
    expect(why({ "pyrightconfig.json": "{ nope" }, "a/b.py")).toBeNull();
  });
});
