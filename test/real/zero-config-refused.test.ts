/**
 * Where zero-config does not serve (SPEC §2.1), with every real server on PATH: started in
 * `/` or in the home directory (here a temporary one holding a Go module cache and a
 * TypeScript project, which discovery would otherwise serve), the bridge starts no
 * language server and runs no version command, says so on stderr at start, shows the
 * reason in session_status, and answers every other tool with WorkspaceRefused saying how
 * to point it at a workspace. `init` refuses the same directories.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type BridgeHandle,
  closeAllBridges,
  ensureBinary,
  REPO,
  startBridge,
} from "../support/bridge.ts";
import { findGopls } from "../support/built-servers.ts";
import { descendantsOf } from "../support/processes.ts";
import { fails, ok, requiredServer } from "../support/real-bridge.ts";
import { findTypescriptLanguageServer } from "../support/real-servers.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";

const gopls = await requiredServer("gopls", findGopls);
const tls = await requiredServer("typescript-language-server", findTypescriptLanguageServer);

/** every server the suites use, as a user's PATH would have them */
const PATH = [
  join(REPO, "test", "servers", "node_modules", ".bin"),
  ...(gopls ? [join(gopls.config.command, "..")] : []),
  process.env.PATH ?? "",
].join(":");

afterEach(closeAllBridges);
afterAll(removeTempDirs);

/** A home directory as a Go and TypeScript user's looks: a module cache, a project, dotfiles. */
function homeDirectory(): string {
  const home = tempDir("theodolite-home-");
  const files: Record<string, string> = {
    ".bashrc": "export PATH\n",
    "go/pkg/mod/example.com/lib@v1.0.0/go.mod": "module example.com/lib\n\ngo 1.22\n",
    "go/pkg/mod/example.com/lib@v1.0.0/lib.go": "package lib\n\nfunc Lib() int { return 1 }\n",
    "proj/package.json": '{ "name": "proj" }\n',
    "proj/index.ts": "export const x = 1;\n",
    "notes.md": "# notes\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(home, rel, ".."), { recursive: true });
    writeFileSync(join(home, rel), text);
  }
  return home;
}

async function expectRefused(bridge: BridgeHandle, reason: string): Promise<void> {
  // session_status answers, and starting every session starts none
  const status = await ok(bridge, "session_status", { start: true });
  expect(status.sessions).toEqual([]);
  const discovery = (status.bridge as { discovery: Record<string, unknown> }).discovery;
  expect(discovery.refused).toEqual({ reason, hint: expect.stringContaining("--config") });
  expect(discovery.servers).toEqual([]);
  for (const [tool, args] of [
    ["hover", { file: "x.ts", line: 1, column: 1 }],
    ["workspace_symbols", { query: "Lib" }],
    ["diagnostics", {}],
    ["session_restart", {}],
  ] as const) {
    const err = await fails(bridge, tool, args);
    expect(err.code).toBe("WorkspaceRefused");
    expect(err.message).toContain(reason);
    expect(err.hint).toContain("start theodolite in the project's directory");
  }
  expect(bridge.stderr()).toContain(`zero-config: not serving`);
  expect(bridge.stderr()).toContain(reason);
  // no supervisor, no server, no version command: the bridge has no child at all
  expect(descendantsOf(bridge.pid)).toEqual([]);
}

describe("zero-config does not serve", () => {
  test.skipIf(!gopls || !tls)("the file system's root", async () => {
    const bridge = await startBridge({ args: [], cwd: "/", env: { PATH } });
    await expectRefused(bridge, "it is the file system's root");
  });

  test.skipIf(!gopls || !tls)("the home directory, Go module cache and all", async () => {
    const home = homeDirectory();
    const bridge = await startBridge({ args: [], cwd: home, env: { PATH, HOME: home } });
    await expectRefused(bridge, "it is the home directory");
  });

  test.skipIf(!gopls || !tls)("a project inside that home is served", async () => {
    const home = homeDirectory();
    const bridge = await startBridge({
      args: [],
      cwd: join(home, "proj"),
      env: { PATH, HOME: home },
    });
    const status = await ok(bridge, "session_status");
    const discovery = (status.bridge as { discovery: Record<string, unknown> }).discovery;
    expect(discovery.refused).toBeUndefined();
    // the TypeScript server, and the JSON server for its package.json
    const servers = (status.sessions as { server: string }[]).map((s) => s.server).sort();
    expect(servers).toEqual(["typescript-language-server", "vscode-json-language-server"]);
  });
});

describe("init does not configure them either", () => {
  test("/ and the home directory: ConfigInvalid (exit 2) with the reason", () => {
    const home = homeDirectory();
    for (const [dir, reason] of [
      ["/", "it is the file system's root"],
      [home, "it is the home directory"],
    ]) {
      const r = Bun.spawnSync([ensureBinary(), "init", dir as string], {
        env: { PATH, HOME: home },
        stdout: "pipe",
        stderr: "pipe",
      });
      expect(r.exitCode).toBe(2);
      const err = JSON.parse(r.stderr.toString().trim().split("\n").at(-1) ?? "{}");
      expect(err.code).toBe("ConfigInvalid");
      expect(err.message).toContain(reason as string);
      expect(r.stdout.toString()).toBe("");
    }
  });
});
