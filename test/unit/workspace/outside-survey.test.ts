import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isSystemPath } from "../../../src/workspace/outside-deps.ts";
import { OutsideSurvey } from "../../../src/workspace/outside-survey.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";

afterAll(removeTempDirs);

/** A base holding the root `proj` and, beside it, what the root's files lead to. */
function setup(files: Record<string, string>) {
  const base = tempDir("theodolite-tree-", {
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
    readAbove: (abs) => readFileSync(abs, "utf8"),
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
  test("links out, any configuration path, sources' relative paths that climb out", async () => {
    const s = setup({
      "proj/src/user.c": '#include "../../outside/inc/cfg.h"\n#include "../lib.h"\n',
      "proj/src/a.ts": 'import { v } from "../../outside/lib/mod";\n',
      "proj/pyrightconfig.json": '{ "stubPath": "../outside/stubs", "include": ["src"] }\n',
      "proj/notes.txt": '"../../outside/inc" is no source',
      "proj/lib.h": "int f(void);\n",
    });
    symlinkSync(join(s.base, "outside", "inc"), join(s.root, "inc"));
    symlinkSync(join(s.root, "lib.h"), join(s.root, "inside-link.h"));
    await s.survey.walk();
    // a source's outside file: its whole directory (what it includes lies beside it)
    expect(s.found()).toEqual([
      "tree outside/inc <- link inc",
      "tree outside/inc <- src/user.c",
      "tree outside/lib <- src/a.ts",
      "tree outside/stubs <- pyrightconfig.json",
    ]);
    expect(s.survey.incomplete).toBe(false);
  });

  test("a second walk reads only what changed; a noted change is looked at alone", async () => {
    const s = setup({
      "proj/src/a.ts": 'import { v } from "./b";\n',
      "proj/src/b.ts": "export const v = 1;\n",
    });
    await s.survey.walk();
    expect(s.reads.sort()).toEqual(["src/a.ts", "src/b.ts"]);
    s.reads.length = 0;
    await s.survey.walk();
    expect(s.reads).toEqual([]);
    writeFileSync(join(s.root, "src/a.ts"), 'import { v } from "../../outside/lib/mod.ts";\n');
    s.survey.note([{ abs: join(s.root, "src/a.ts"), kind: "changed" }]);
    expect(s.reads).toEqual(["src/a.ts"]);
    expect(s.found()).toEqual(["tree outside/lib <- src/a.ts"]);
    s.survey.note([{ abs: join(s.root, "src/a.ts"), kind: "deleted" }]);
    expect(s.found()).toEqual([]);
  });

  test("the host's directories and the file system's root are none; a path to nothing yet, where it would appear", async () => {
    const s = setup({
      "proj/compile_flags.txt": "-I/usr/include\n-I../missing\n-I../outside/inc\n-I/dist\n",
      "proj/go.mod": "module m\n\nrequire x v1.0.0 // indirect\n",
      "proj/tsconfig.json": '{ "outDir": "/", "include": ["/*"] }',
      "proj/src/x.c": '#include "/usr/include/stdio.h"\n#include "../../../../../../../../.."\n',
    });
    await s.survey.walk();
    expect(s.found()).toEqual([
      "entries  <- compile_flags.txt",
      "tree outside/inc <- compile_flags.txt",
    ]);
  });
});

test("a source's absolute include outside the system directories is a dependency", async () => {
  const s = setup({ "proj/a.c": "" });
  writeFileSync(join(s.root, "a.c"), `#include "${join(s.base, "outside/inc/cfg.h")}"\n`);
  await s.survey.walk();
  expect(s.found()).toEqual(["tree outside/inc <- a.c"]);
});
