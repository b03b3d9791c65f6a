/**
 * One session's view of its server's program (SPEC §4.3 `outside_program`) over a real
 * directory: the call's file judged against the configuration as it is on disk now, and
 * the workspace's survey, kept until files come or go or the configuration changes.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OUTSIDE_NAMED, Program } from "../../../src/workspace/program.ts";
import { InotifyHub } from "../../../src/workspace/watch-hub.ts";
import { Workspace } from "../../../src/workspace/workspace.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";
import { workspaceAt } from "../../support/workspace.ts";

afterAll(removeTempDirs);

const LIMITS = { maxFileBytes: 1 << 20, maxWatches: 16 };
const ts = (rel: string) => /\.(?:ts|js)$/.test(rel);

describe("the call's file", () => {
  test("follows the configuration on disk: a tsconfig.json written, then changed", () => {
    const root = tempDir("theodolite-tree-", { "src/index.ts": "", "src/other.ts": "" });
    const program = new Program(workspaceAt(root), "tsconfig", ts);
    expect(program.outside("src/index.ts")?.reason).toStartWith("in no project (no tsconfig.json");
    writeFileSync(join(root, "tsconfig.json"), '{"include": ["src"]}');
    expect(program.outside("src/index.ts")).toBeNull();
    writeFileSync(join(root, "tsconfig.json"), '{"include": ["lib"]}');
    expect(program.outside("src/index.ts")?.reason).toContain("tsconfig.json does not include it");
  });

  test("a base it extends, changed, counts", () => {
    const root = tempDir("theodolite-tree-", {
      "tsconfig.json": '{"extends": "./base.json"}',
      "base.json": '{"include": ["src"]}',
      "src/a.ts": "",
    });
    const program = new Program(workspaceAt(root), "tsconfig", ts);
    expect(program.outside("src/a.ts")).toBeNull();
    writeFileSync(join(root, "base.json"), '{"include": ["lib"]}');
    expect(program.outside("src/a.ts")).not.toBeNull();
  });

  test("a decision kept is given up when a nearer project file appears, or goes again", () => {
    const root = tempDir("theodolite-tree-", {
      "tsconfig.json": '{"include": ["lib"]}',
      "src/deep/a.ts": "",
    });
    const program = new Program(workspaceAt(root), "tsconfig", ts);
    const before = program.outside("src/deep/a.ts");
    expect(before?.reason).toContain("tsconfig.json does not include it");
    // asked again with nothing changed: the same decision
    expect(program.outside("src/deep/a.ts")).toEqual(before);
    writeFileSync(join(root, "src", "tsconfig.json"), '{"include": ["deep"]}');
    expect(program.outside("src/deep/a.ts")).toBeNull();
    rmSync(join(root, "src", "tsconfig.json"));
    expect(program.outside("src/deep/a.ts")).toEqual(before);
  });

  test("a virtual environment's marker appearing after a decision counts", () => {
    const root = tempDir("theodolite-tree-", { "env/lib/mod.py": "" });
    const program = new Program(workspaceAt(root), "pyrightconfig", (r) => r.endsWith(".py"));
    expect(program.outside("env/lib/mod.py")).toBeNull();
    writeFileSync(join(root, "env", "pyvenv.cfg"), "home = /usr/bin\n");
    expect(program.outside("env/lib/mod.py")?.reason).toStartWith(
      "inside a virtual environment (env)",
    );
  });

  test("a file the server does not serve, or a server without `program`: never marked", () => {
    const root = tempDir("theodolite-tree-", { "a.py": "" });
    expect(new Program(workspaceAt(root), "tsconfig", ts).outside("a.py")).toBeNull();
    expect(new Program(workspaceAt(root), null, () => true).outside("a.py")).toBeNull();
  });

  test("the compile database where file_dirs puts it, its entries against their directories", () => {
    const root = tempDir("theodolite-tree-", { "main.c": "", "orphan.c": "" });
    const file_dirs = { "compile_commands.json": "build" };
    const ws = new Workspace(
      { name: "ws", root, servers: [], file_dirs, incidental: [] },
      LIMITS,
      new InotifyHub(),
    );
    const db = [{ directory: root, file: "main.c", command: "cc -c main.c" }];
    const program = new Program(ws, "compile_commands", (r) => r.endsWith(".c"));
    // no database yet: the bridge cannot tell
    expect(program.outside("orphan.c")).toBeNull();
    mkdirSync(join(root, "build"));
    writeFileSync(join(root, "build", "compile_commands.json"), JSON.stringify(db));
    expect(program.outside("main.c")).toBeNull();
    expect(program.outside("orphan.c")?.reason).toStartWith("not in build/compile_commands.json");
  });
});

describe("the workspace's survey", () => {
  test("names the first files outside in sorted order and counts them all", async () => {
    const files = Object.fromEntries(
      Array.from({ length: OUTSIDE_NAMED + 2 }, (_, i) => [`src/f${i}.ts`, ""]),
    );
    const root = tempDir("theodolite-tree-", {
      ...files,
      "node_modules/p/index.ts": "",
      ".cache/x.ts": "",
    });
    const program = new Program(workspaceAt(root), "tsconfig", ts);
    const survey = await program.survey();
    expect(survey.total).toBe(OUTSIDE_NAMED + 2);
    expect(survey.files.map((f) => f.file)).toEqual(
      Object.keys(files).sort().slice(0, OUTSIDE_NAMED),
    );
  });

  test("kept until files come or go or configuration changes", async () => {
    const root = tempDir("theodolite-tree-", {
      "src/a.ts": "",
      "tsconfig.json": '{"include": ["src"]}',
    });
    const program = new Program(workspaceAt(root), "tsconfig", ts);
    expect((await program.survey()).total).toBe(0);
    writeFileSync(join(root, "scripts.ts"), "");
    program.noteChanges([{ abs: join(root, "src", "a.ts"), kind: "changed" }]);
    expect((await program.survey()).total).toBe(0);
    program.noteChanges([{ abs: join(root, "scripts.ts"), kind: "created" }]);
    expect((await program.survey()).files.map((f) => f.file)).toEqual(["scripts.ts"]);
    rmSync(join(root, "tsconfig.json"));
    program.noteChanges([{ abs: join(root, "tsconfig.json"), kind: "deleted" }]);
    expect((await program.survey()).total).toBe(2);
  });
});
