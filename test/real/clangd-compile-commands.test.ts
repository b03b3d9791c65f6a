/**
 * clangd's compile_commands.json prerequisite through the compiled bridge (SPEC §3.4): a
 * workspace without one fails with WorkspaceFileMissing and a hint on how to generate it,
 * a malformed one with WorkspaceFileInvalid naming the problem, `--check-config` reports
 * both as a FAIL line and exits 2, and `file_dirs` finds a database in a build directory.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ServerConfig } from "../../src/config/types.ts";
import { closeBridgesAndTempDirs, ensureBinary, writeConfig } from "../support/bridge.ts";
import {
  fails,
  locs,
  ok,
  realConfig,
  requiredServer,
  startAndStatus,
  startRealBridge,
} from "../support/real-bridge.ts";
import { copyFixture, findClangd, materializeCFixture } from "../support/real-servers.ts";

const clangd = await requiredServer("clangd", findClangd);

function config(): ServerConfig {
  if (!clangd) throw new Error("clangd missing");
  return clangd.config;
}

afterAll(closeBridgesAndTempDirs);

/** A c fixture copy with its compile_commands.json written, removed after the tests. */
function cFixture(): string {
  const dir = materializeCFixture();
  return dir;
}

/** `theodolite --check-config` on a config: exit code and stdout lines. */
function checkConfig(configPath: string): { code: number | null; lines: string[] } {
  const r = Bun.spawnSync([ensureBinary(), "--check-config", configPath], {
    stdout: "pipe",
    stderr: "pipe",
    timeout: 60_000,
  });
  return { code: r.exitCode, lines: r.stdout.toString().split("\n") };
}

const REQUIREMENT = "workspace.ws.clangd.requires.compile_commands.json";

describe.skipIf(!clangd)("compile_commands.json prerequisite (SPEC §3.4)", () => {
  /** A c fixture copy without a compile database, removed after the tests. */
  function bareCopy(): string {
    const dir = copyFixture("c");
    return dir;
  }

  test("missing: a tool call is WorkspaceFileMissing with a hint naming CMake, bear and compiledb", async () => {
    const root = bareCopy();
    const bridge = await startRealBridge(root, config());
    try {
      const err = await fails(bridge, "definition", {
        file: "main.c",
        line: 6,
        symbol: "manhattan",
      });
      expect(err.code).toBe("WorkspaceFileMissing");
      expect(err.message).toContain("compile_commands.json");
      expect(err.hint).toContain("CMake");
      expect(err.hint).toContain("bear");
      expect(err.hint).toContain("compiledb");
      expect(err.details?.file).toBe("compile_commands.json"); // workspace-relative (SPEC §4.6)
      // nothing was started: the next call checks again and works once the file is there
      const status = await ok(bridge, "session_status");
      expect((status.sessions as { state: string }[])[0]?.state).toBe("not_started");
      const made = materializeCFixture(root);
      expect(made).toBe(root);
      const def = await ok(bridge, "definition", { file: "main.c", line: 6, symbol: "manhattan" });
      expect(locs(def)).toEqual(["util.c 5:5–5:14"]);
    } finally {
      await bridge.close();
    }
    const check = checkConfig(writeConfig(realConfig(bareCopy(), config())));
    expect(check.code).toBe(2);
    expect(check.lines.filter((l) => l.startsWith(`FAIL ${REQUIREMENT} `))).toEqual([
      expect.stringContaining("WorkspaceFileMissing"),
    ]);
  });

  for (const [what, text, reason, entry] of [
    ["an entry without a file", '[{"directory": "x"}]', 'entry 0 has no "file" string', 0],
    [
      "a bad second entry",
      '[{"directory": "/w", "file": "/w/a.c", "command": "cc -c a.c"}, {"directory": "/w", "file": "/w/b.c"}]',
      'entry 1 (/w/b.c) has neither a "command" string nor an "arguments" list of strings',
      1,
    ],
    ["text that is not JSON", "this is not json", "not valid JSON", null],
  ] as const) {
    test(`malformed (${what}): WorkspaceFileInvalid naming the problem; --check-config FAILs`, async () => {
      const root = bareCopy();
      writeFileSync(join(root, "compile_commands.json"), text);
      const bridge = await startRealBridge(root, config());
      try {
        const err = await fails(bridge, "hover", { file: "main.c", line: 6, column: 29 });
        expect(err.code).toBe("WorkspaceFileInvalid");
        expect(err.message).toContain(reason);
        expect(err.details?.entry).toBe(entry);
        expect(err.hint).toContain("compiledb");
      } finally {
        await bridge.close();
      }
      const check = checkConfig(writeConfig(realConfig(root, config())));
      expect(check.code).toBe(2);
      const fail = check.lines.filter((l) => l.startsWith(`FAIL ${REQUIREMENT} `));
      expect(fail).toHaveLength(1);
      expect(fail[0]).toContain("WorkspaceFileInvalid");
      expect(fail[0]).toContain(reason);
    });
  }

  test('file_dirs = {"compile_commands.json" = "build"}: the database in build/ works', async () => {
    const root = cFixture();
    mkdirSync(join(root, "build"));
    renameSync(join(root, "compile_commands.json"), join(root, "build", "compile_commands.json"));
    const opts = { workspace: { file_dirs: { "compile_commands.json": "build" } } };
    const bridge = await startRealBridge(root, config(), opts);
    try {
      const s = await startAndStatus(bridge);
      expect(s.state).toBe("ready");
      const def = await ok(bridge, "definition", { file: "main.c", line: 6, symbol: "manhattan" });
      expect(locs(def)).toEqual(["util.c 5:5–5:14"]);
      // cross-file references need the background index built from that database
      const refs = await ok(bridge, "references", { file: "main.c", line: 6, column: 29 });
      expect(refs.total).toBe(3);
    } finally {
      await bridge.close();
    }
    const check = checkConfig(writeConfig(realConfig(root, config(), opts)));
    expect(check.lines).toContain(
      `ok   ${REQUIREMENT} ${join(root, "build", "compile_commands.json")}`,
    );
    expect(check.code).toBe(0);
  });
});
