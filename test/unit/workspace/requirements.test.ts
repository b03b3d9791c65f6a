/**
 * Workspace prerequisites (SPEC §3.4) as `--check-config` reports them and as a session
 * start passes them on: one line per (workspace, server, file), the server args from
 * `dir_arg`.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config, ServerConfig, WorkspaceConfig } from "../../../src/config/types.ts";
import { prepareWorkspaceFiles, workspaceFileChecks } from "../../../src/workspace/requirements.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";
import { thrown } from "../../support/thrown.ts";

afterAll(removeTempDirs);

function workspace(name: string, fileDirs: Record<string, string> = {}): WorkspaceConfig {
  const root = tempDir("theodolite-requirements-");
  return { name, root, servers: ["clangd"], file_dirs: fileDirs } as WorkspaceConfig;
}

const clangd = {
  name: "clangd",
  requires: [
    {
      file: "compile_commands.json",
      format: "compile_commands",
      dir_arg: "--compile-commands-dir={dir}",
      hint: "generate it",
    },
  ],
} as unknown as ServerConfig;

const DATABASE = JSON.stringify([{ directory: "/src", file: "a.c", command: "cc -c a.c" }]);

describe("workspace requirements", () => {
  test("--check-config: ok with the file's path, FAIL with the error code and message", () => {
    const good = workspace("good", { "compile_commands.json": "build" });
    mkdirSync(join(good.root, "build"));
    writeFileSync(join(good.root, "build", "compile_commands.json"), DATABASE);
    const missing = workspace("missing");
    const config = { workspaces: [good, missing], servers: [clangd] } as unknown as Config;
    const checks = workspaceFileChecks(config);
    expect(checks.map((c) => c.ok)).toEqual([true, false]);
    expect(checks[0]?.line).toBe(
      `ok   workspace.good.clangd.requires.compile_commands.json ${join(good.root, "build", "compile_commands.json")}`,
    );
    expect(checks[1]?.line).toStartWith(
      "FAIL workspace.missing.clangd.requires.compile_commands.json WorkspaceFileMissing: clangd needs",
    );
  });

  test("a session start gets the dir_arg of each met requirement, and the error of an unmet one", () => {
    const ws = workspace("ws");
    writeFileSync(join(ws.root, "compile_commands.json"), DATABASE);
    expect(prepareWorkspaceFiles(ws, clangd, null)).toEqual({
      args: [`--compile-commands-dir=${ws.root}`],
      files: [],
    });
    writeFileSync(join(ws.root, "compile_commands.json"), "[{}]");
    expect(thrown(() => prepareWorkspaceFiles(ws, clangd, null)).code).toBe("WorkspaceFileInvalid");
  });

  test("private_copy: the file copied for the session, dir_arg naming its own directory", () => {
    const ws = workspace("ws");
    writeFileSync(join(ws.root, "compile_commands.json"), DATABASE);
    const copying = {
      ...clangd,
      requires: clangd.requires.map((r) => ({ ...r, private_copy: true })),
    };
    expect(prepareWorkspaceFiles(ws, copying, "{own}")).toEqual({
      args: ["--compile-commands-dir={own}"],
      files: [{ name: "compile_commands.json", data: Buffer.from(DATABASE) }],
    });
    // without a directory of its own, or with a relative entry directory, it stays put
    expect(prepareWorkspaceFiles(ws, copying, null).args).toEqual([
      `--compile-commands-dir=${ws.root}`,
    ]);
    const relative = JSON.stringify([{ directory: ".", file: "a.c", command: "cc a.c" }]);
    writeFileSync(join(ws.root, "compile_commands.json"), relative);
    expect(prepareWorkspaceFiles(ws, copying, "{own}").files).toEqual([]);
  });
});
