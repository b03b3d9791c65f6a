import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isSystemPath } from "../../../src/workspace/outside-deps.ts";
import { OutsideSurvey } from "../../../src/workspace/outside-survey.ts";
import { removeTempTrees, tempTree } from "../../support/temp-tree.ts";

afterAll(removeTempTrees);

/** A base holding the root `proj` and, beside it, what the root's files lead to. */
function setup(files: Record<string, string>) {
  const base = tempTree({
    "outside/inc/cfg.h": "#define X 1\n",
    "outside/lib/mod.ts": "export const v = 1;\n",
    "outside/stubs/ext.pyi": "def f() -> int: ...\n",
    ...files,
  });
  const root = join(base, "proj");
  const reads: string[] = [];
  const survey = new OutsideSurvey({
    rootReal: root,
    sourceExtensions: new Set(["c", "h", "ts", "py"]),
    read: (abs) => {
      reads.push(abs.slice(root.length + 1));
      return readFileSync(abs, "utf8");
    },
    isSystem: isSystemPath,
  });
  const found = () =>
    survey
      .dependencies()
      .map((d) => `${d.kind} ${d.path.slice(base.length + 1)} <- ${d.source}`)
      .sort();
  return { base, root, survey, reads, found };
}

describe("OutsideSurvey", () => {
  test("links out, any configuration path, sources' relative paths that climb out", () => {
    const s = setup({
      "proj/src/user.c": '#include "../../outside/inc/cfg.h"\n#include "../lib.h"\n',
      "proj/src/a.ts": 'import { v } from "../../outside/lib/mod";\n',
      "proj/pyrightconfig.json": '{ "stubPath": "../outside/stubs", "include": ["src"] }\n',
      "proj/notes.txt": '"../../outside/inc" is no source',
      "proj/lib.h": "int f(void);\n",
    });
    symlinkSync(join(s.base, "outside", "inc"), join(s.root, "inc"));
    symlinkSync(join(s.root, "lib.h"), join(s.root, "inside-link.h"));
    s.survey.walk();
    expect(s.found()).toEqual([
      "entries outside/lib <- src/a.ts",
      "file outside/inc/cfg.h <- src/user.c",
      "tree outside/inc <- link inc",
      "tree outside/stubs <- pyrightconfig.json",
    ]);
    expect(s.survey.incomplete).toBe(false);
  });

  test("a second walk reads only what changed; a noted change is looked at alone", () => {
    const s = setup({
      "proj/src/a.ts": 'import { v } from "./b";\n',
      "proj/src/b.ts": "export const v = 1;\n",
    });
    s.survey.walk();
    expect(s.reads.sort()).toEqual(["src/a.ts", "src/b.ts"]);
    s.reads.length = 0;
    s.survey.walk();
    expect(s.reads).toEqual([]);
    writeFileSync(join(s.root, "src/a.ts"), 'import { v } from "../../outside/lib/mod.ts";\n');
    s.survey.note([{ abs: join(s.root, "src/a.ts"), kind: "changed" }]);
    expect(s.reads).toEqual(["src/a.ts"]);
    expect(s.found()).toEqual(["file outside/lib/mod.ts <- src/a.ts"]);
    s.survey.note([{ abs: join(s.root, "src/a.ts"), kind: "deleted" }]);
    expect(s.found()).toEqual([]);
  });

  test("the host's directories, the file system's root and paths to nothing are none", () => {
    const s = setup({
      "proj/compile_flags.txt": "-I/usr/include\n-I../missing\n-I../outside/inc\n-I/dist\n",
      "proj/go.mod": "module m\n\nrequire x v1.0.0 // indirect\n",
      "proj/tsconfig.json": '{ "outDir": "/", "include": ["/*"] }',
    });
    s.survey.walk();
    expect(s.found()).toEqual(["tree outside/inc <- compile_flags.txt"]);
  });
});
