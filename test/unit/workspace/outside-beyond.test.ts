import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OutsideBeyond } from "../../../src/workspace/outside-beyond.ts";
import { isSystemPath, type OutsideDependency } from "../../../src/workspace/outside-deps.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";

afterAll(removeTempDirs);

/** A base holding the root `proj` and, beside it, the trees its dependencies lead to. */
function setup(files: Record<string, string>) {
  const base = tempDir("theodolite-tree-", {
    "proj/src/main.c": "int main(void) { return 0; }\n",
    ...files,
  });
  const root = join(base, "proj");
  const reads: string[] = [];
  const beyond = new OutsideBeyond({
    rootReal: root,
    sourceExtensions: new Set(["c", "h", "ts"]),
    read: (abs) => {
      reads.push(abs.slice(base.length + 1));
      try {
        return readFileSync(abs, "utf8");
      } catch {
        return undefined;
      }
    },
    isSystem: isSystemPath,
  });
  const dep = (kind: OutsideDependency["kind"], rel: string): OutsideDependency => ({
    kind,
    path: join(base, rel),
    source: "compile_commands.json",
  });
  const further = (deps: OutsideDependency[]) =>
    beyond
      .further(deps, 64)
      .map((d) => `${d.kind} ${d.path.slice(base.length + 1)}`)
      .sort();
  return { base, root, beyond, reads, dep, further };
}

describe("OutsideBeyond", () => {
  test("a header outside includes one further out: its directory is a dependency too", () => {
    const s = setup({
      "shared/a.h": '#include "../vendor/x.h"\n#include "b.h"\n',
      "shared/b.h": "#define B 1\n",
      "vendor/x.h": '#include "../third/y.h"\n',
      "third/y.h": "#define Y 1\n",
      "shared/notes.txt": '"../elsewhere/z.h"\n',
    });
    mkdirSync(join(s.base, "elsewhere"));
    // transitively: shared → vendor → third; a file no server reads names nothing
    expect(s.further([s.dep("tree", "shared")])).toEqual(["tree third", "tree vendor"]);
  });

  test("a base configuration outside names others beside and above it", () => {
    const s = setup({
      "conf/tsconfig.base.json": '{ "extends": "./strict.json" }\n',
      "conf/strict.json": '{ "compilerOptions": { "typeRoots": ["../types"] } }\n',
      "types/index.d.ts": "export {};\n",
    });
    // strict.json is no configuration by name: named by one, it is read all the same
    expect(s.further([s.dep("file", "conf/tsconfig.base.json")])).toEqual([
      "file conf/strict.json",
      "tree types",
    ]);
  });

  test("what lies inside the tree read, or holds the root, is no new dependency", () => {
    const s = setup({
      "shared/inc/a.h": '#include "../other/b.h"\n',
      "shared/other/b.h": '#include "../../proj/src/main.c"\n',
    });
    expect(s.further([s.dep("tree", "shared"), s.dep("tree", "")])).toEqual([]);
    expect(s.reads.some((r) => r.startsWith("proj/"))).toBe(false);
  });

  test("a change outside is read again: a new way out is found, and files read are kept", () => {
    const s = setup({ "shared/a.h": "#define A 1\n", "other/c.h": "#define C 1\n" });
    const shared = s.dep("tree", "shared");
    expect(s.further([shared])).toEqual([]);
    const a = join(s.base, "shared", "a.h");
    writeFileSync(a, '#include "../other/c.h"\n');
    s.reads.length = 0;
    expect(s.further([shared])).toEqual([]); // not told: nothing read again
    expect(s.reads).toEqual([]);
    s.beyond.note([{ abs: a, kind: "changed" }]);
    expect(s.further([shared])).toEqual(["tree other"]);
    // a new file in a tree read whole is read when it is reported
    const n = join(s.base, "shared", "n.h");
    writeFileSync(n, '#include "../late/d.h"\n');
    mkdirSync(join(s.base, "late"));
    writeFileSync(join(s.base, "late", "d.h"), "\n");
    s.beyond.note([{ abs: n, kind: "created" }]);
    expect(s.further([shared])).toEqual(["tree late", "tree other"]);
  });

  test("a path to nothing yet is awaited where it would appear, then followed", () => {
    const s = setup({ "shared/a.h": '#include "../gen/out/cfg.h"\n' });
    const shared = s.dep("tree", "shared");
    const [waiting] = s.beyond.further([shared], 64);
    // the nearest directory that exists holds the root: its own entries are watched
    expect(waiting?.kind).toBe("entries");
    expect(waiting?.path).toBe(s.base);
    expect(waiting?.awaits).toBe(join(s.base, "gen", "out", "cfg.h"));
    mkdirSync(join(s.base, "gen", "out"), { recursive: true });
    writeFileSync(join(s.base, "gen", "out", "cfg.h"), "\n");
    s.beyond.awaited(s.base);
    expect(s.further([shared])).toEqual(["tree gen/out"]);
  });
});
