/**
 * Zero-config in real repositories (SPEC §2.1) through the compiled binary, with the real
 * servers: it always serves; a missing or malformed compile database is reported per call
 * (WorkspaceFileMissing / WorkspaceFileInvalid) and by session_status, and fixing it is
 * enough; the workspace's own TypeScript decides between typescript-language-server and
 * typescript-native whatever `tsc` comes first on PATH; pyright uses the workspace's
 * virtual environment; with no usable server, calls answer NoServerForFile naming what to
 * install (without a real server: test/stdio/zero-config.test.ts). Error texts name workspace
 * paths relatively.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import type { DiscoveredPreset } from "../../src/config/types.ts";
import {
  type BridgeHandle,
  closeAllBridges,
  ensureBinary,
  REPO,
  startBridge,
} from "../support/bridge.ts";
import { fails, locs, ok, requiredServer } from "../support/real-bridge.ts";
import {
  copyFixture,
  findClangd,
  findPyright,
  findTypescriptLanguageServer,
  findTypescriptNative,
  materializeCFixture,
} from "../support/real-servers.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";

const clangd = await requiredServer("clangd", findClangd);
const tls = await requiredServer("typescript-language-server", findTypescriptLanguageServer);
const native = await requiredServer("typescript-native", findTypescriptNative);
const pyright = await requiredServer("pyright", findPyright);

/** npm servers of test/servers (typescript-language-server, pyright, TypeScript 5.9.3) */
const SERVERS_BIN = join(REPO, "test", "servers", "node_modules", ".bin");
const TS5_PACKAGE = join(REPO, "test", "servers", "node_modules", "typescript");
/** the repo's own dev dependency: TypeScript 7 and its `tsc` */
const TS7_PACKAGE = join(REPO, "node_modules", "typescript");
const TS7_BIN = join(REPO, "node_modules", ".bin");
/** where node and the system servers (clangd) live, without any npm server */
const SYSTEM_PATH = process.env.PATH ?? "";

afterEach(closeAllBridges);
afterAll(removeTempDirs);

/** The bridge with no configuration, serving `cwd`, looking for servers on `path`. */
function zeroConfig(cwd: string, path: string): Promise<BridgeHandle> {
  return startBridge({ args: [], cwd, env: { PATH: path } });
}

interface Status {
  bridge: { config: string; discovery: { servers: DiscoveredPreset[]; root: string } };
  sessions: {
    server: string;
    state: string;
    workspace_files: { file: string; ok: boolean; error?: { code: string } }[];
  }[];
}

async function status(bridge: BridgeHandle): Promise<Status> {
  return (await ok(bridge, "session_status")) as unknown as Status;
}

function row(s: Status, name: string): DiscoveredPreset {
  const found = s.bridge.discovery.servers.find((r) => r.name === name);
  if (!found)
    throw new Error(`no discovery row for ${name}: ${JSON.stringify(s.bridge.discovery)}`);
  return found;
}

/** demo-ts (TypeScript sources, no node_modules) copied into `dir`. */
function addTypescriptSources(dir: string): void {
  cpSync(join(REPO, "test", "fixtures", "demo-ts"), dir, { recursive: true });
}

/** A demo-ts copy whose node_modules/typescript is `typescriptPackage` (or none). */
function typescriptWorkspace(typescriptPackage?: string): string {
  const root = tempDir("theodolite-ts-");
  addTypescriptSources(root);
  if (typescriptPackage !== undefined) {
    mkdirSync(join(root, "node_modules"));
    symlinkSync(typescriptPackage, join(root, "node_modules", "typescript"));
  }
  return root;
}

/** The demo's cross-file definition answers through whichever server was chosen. */
async function expectGreetDefinition(bridge: BridgeHandle): Promise<void> {
  const def = await ok(bridge, "definition", { file: "src/index.ts", line: 3, symbol: "greet" });
  expect(locs(def)).toEqual(["src/greet.ts 2:17–2:22"]);
}

describe("a C workspace, zero-config", () => {
  test.skipIf(!clangd)(
    "without compile_commands.json it serves: WorkspaceFileMissing per call and in session_status; once written, session_restart and hover work, definition crosses into util.c",
    async () => {
      const root = copyFixture("c");
      const bridge = await zeroConfig(root, SYSTEM_PATH);
      const before = await status(bridge);
      expect(before.bridge.config).toBe("zero-config");
      expect(row(before, "clangd").status).toBe("configured");
      const session = before.sessions.find((s) => s.server === "clangd");
      expect(session?.workspace_files).toEqual([
        {
          file: "compile_commands.json",
          ok: false,
          error: expect.objectContaining({ code: "WorkspaceFileMissing" }),
        },
      ]);
      const err = await fails(bridge, "hover", { file: "main.c", line: 6, symbol: "manhattan" });
      expect(err.code).toBe("WorkspaceFileMissing");
      expect(err.hint).toContain("-DCMAKE_EXPORT_COMPILE_COMMANDS=ON");
      expect(err.hint).toContain('session_restart with server "clangd"');
      // workspace-relative texts: no absolute path inside the workspace anywhere
      expect(err.message).toBe("clangd needs compile_commands.json, and there is none");
      expect(err.details?.file).toBe("compile_commands.json");
      expect(JSON.stringify(err)).not.toContain(root);

      materializeCFixture(root);
      const restarted = await ok(bridge, "session_restart", { server: "clangd" });
      expect(restarted.state).toBe("ready");
      const hover = await ok(bridge, "hover", { file: "main.c", line: 6, symbol: "manhattan" });
      expect(hover.text).toContain("manhattan");
      const def = await ok(bridge, "definition", { file: "main.c", line: 6, symbol: "manhattan" });
      expect(locs(def)).toEqual(["util.c 5:5–5:14"]);
      const after = await status(bridge);
      expect(after.sessions.find((s) => s.server === "clangd")?.workspace_files).toEqual([
        { file: "compile_commands.json", ok: true },
      ]);
    },
  );

  test.skipIf(!clangd)("a malformed compile_commands.json: WorkspaceFileInvalid", async () => {
    const root = copyFixture("c");
    writeFileSync(join(root, "compile_commands.json"), "this is not json");
    const bridge = await zeroConfig(root, SYSTEM_PATH);
    const err = await fails(bridge, "hover", { file: "main.c", line: 6, symbol: "manhattan" });
    expect(err.code).toBe("WorkspaceFileInvalid");
    expect(err.message).toStartWith("compile_commands.json: ");
    expect(err.message).toContain("not valid JSON");
    expect(JSON.stringify(err)).not.toContain(root);
  });
});

describe("a mixed C + TypeScript workspace, zero-config", () => {
  test.skipIf(!clangd || !tls)(
    "both servers are configured: .ts answers, .c says what clangd is missing",
    async () => {
      const root = copyFixture("c");
      addTypescriptSources(root);
      const bridge = await zeroConfig(root, `${SERVERS_BIN}:${SYSTEM_PATH}`);
      const s = await status(bridge);
      // tsconfig.json is JSON: its server serves it too
      expect(s.sessions.map((x) => x.server).sort()).toEqual([
        "clangd",
        "typescript-language-server",
        "vscode-json-language-server",
      ]);
      await expectGreetDefinition(bridge);
      const err = await fails(bridge, "hover", { file: "main.c", line: 6, symbol: "manhattan" });
      expect(err.code).toBe("WorkspaceFileMissing");
    },
  );
});

describe("the workspace's TypeScript decides", () => {
  test.skipIf(!tls || !native)(
    "tsc 7 first on PATH over a TypeScript 5.9 workspace: typescript-language-server with the workspace's tsserver",
    async () => {
      const root = typescriptWorkspace(TS5_PACKAGE);
      const bridge = await zeroConfig(root, `${TS7_BIN}:${SERVERS_BIN}:${SYSTEM_PATH}`);
      const s = await status(bridge);
      expect(s.sessions.map((x) => x.server)).toEqual([
        "typescript-language-server",
        "vscode-json-language-server",
      ]);
      const chosen = row(s, "typescript-language-server");
      expect(chosen.status).toBe("configured");
      expect(chosen.version).toBe("5.3.0");
      expect(chosen.why).toContain("TypeScript 5.9.3");
      expect(chosen.why).toContain("node_modules/typescript/lib/tsserver.js");
      const left = row(s, "typescript-native");
      expect(left.status).toBe("left_out");
      expect(left.why).toContain("is not 7.x");
      await expectGreetDefinition(bridge);
    },
  );

  test.skipIf(!tls || !native)(
    "a TypeScript 7 workspace: typescript-native with the workspace's own tsc, even with typescript-language-server on PATH",
    async () => {
      const root = typescriptWorkspace(TS7_PACKAGE);
      const bridge = await zeroConfig(root, `${SERVERS_BIN}:${SYSTEM_PATH}`);
      const s = await status(bridge);
      expect(s.sessions.map((x) => x.server)).toEqual([
        "typescript-native",
        "vscode-json-language-server",
      ]);
      const chosen = row(s, "typescript-native");
      expect(chosen.command).toBe(join(root, "node_modules", "typescript", "bin", "tsc"));
      expect(chosen.version).toStartWith("Version 7.");
      expect(row(s, "typescript-language-server").why).toContain("is 7.x");
      await expectGreetDefinition(bridge);
    },
  );

  test.skipIf(!tls || !native)(
    "no workspace TypeScript: typescript-language-server when PATH has it, typescript-native when PATH offers only tsc 7",
    async () => {
      const root = typescriptWorkspace();
      const both = await zeroConfig(root, `${TS7_BIN}:${SERVERS_BIN}:${SYSTEM_PATH}`);
      const withTls = await status(both);
      expect(withTls.sessions.map((x) => x.server)).toEqual([
        "typescript-language-server",
        "vscode-json-language-server",
      ]);
      expect(row(withTls, "typescript-native").status).toBe("left_out");
      await both.close();
      const only7 = await zeroConfig(root, `${TS7_BIN}:${SYSTEM_PATH}`);
      const s = await status(only7);
      expect(s.sessions.map((x) => x.server)).toEqual(["typescript-native"]);
      expect(row(s, "typescript-language-server").why).toContain("not found");
    },
  );
});

describe("init writes the same choice", () => {
  test.skipIf(!tls || !native || !clangd)(
    "tsc 7 first on PATH, a TypeScript 5.9 workspace with C sources and no compile database",
    () => {
      const root = typescriptWorkspace(TS5_PACKAGE);
      cpSync(join(REPO, "test", "fixtures", "c"), root, { recursive: true });
      const init = Bun.spawnSync([ensureBinary(), "init", root], {
        env: { PATH: `${TS7_BIN}:${SERVERS_BIN}:${SYSTEM_PATH}`, HOME: process.env.HOME ?? "/" },
        stdout: "pipe",
        stderr: "pipe",
      });
      expect(init.exitCode).toBe(0);
      const text = init.stdout.toString();
      const doc = parse(text) as {
        server: { name: string; initialization_options?: { tsserver?: { path: string } } }[];
      };
      expect(doc.server.map((x) => x.name)).toEqual([
        "clangd",
        "typescript-language-server",
        "vscode-json-language-server",
      ]);
      expect(doc.server[1]?.initialization_options?.tsserver?.path).toBe(
        join(root, "node_modules", "typescript", "lib", "tsserver.js"),
      );
      expect(text).toContain("# typescript-language-server: ");
      expect(text).toContain("# clangd needs compile_commands.json");
      expect(text).toContain("# left out: typescript-native: the workspace's TypeScript 5.9.3");
    },
  );
});

describe("Python: the workspace's virtual environment", () => {
  test.skipIf(!pyright)("pyright resolves imports from .venv's site-packages", async () => {
    const root = copyFixture("python");
    const venv = Bun.spawnSync(["python3", "-m", "venv", "--without-pip", join(root, ".venv")], {
      stdout: "pipe",
      stderr: "pipe",
    });
    if (venv.exitCode !== 0) throw new Error(`python3 -m venv failed: ${venv.stderr}`);
    const version = Bun.spawnSync(
      [
        join(root, ".venv", "bin", "python"),
        "-c",
        "import sys; print('%d.%d' % sys.version_info[:2])",
      ],
      { stdout: "pipe" },
    )
      .stdout.toString()
      .trim();
    const site = join(root, ".venv", "lib", `python${version}`, "site-packages");
    writeFileSync(join(site, "venvonly.py"), "def from_the_venv() -> int:\n    return 1\n");
    writeFileSync(
      join(root, "uses_venv.py"),
      "from venvonly import from_the_venv\n\nfrom_the_venv()\n",
    );
    const bridge = await zeroConfig(root, `${SERVERS_BIN}:${SYSTEM_PATH}`);
    const s = await status(bridge);
    expect(row(s, "pyright").why).toContain(".venv/bin/python");
    const def = await ok(bridge, "definition", {
      file: "uses_venv.py",
      line: 3,
      symbol: "from_the_venv",
    });
    expect(locs(def)).toEqual([`.venv/lib/python${version}/site-packages/venvonly.py 1:5–1:18`]);
  });
});
