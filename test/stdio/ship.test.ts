/**
 * Shipping through the compiled binary (SPEC §2, §2.1, §3): `theodolite init` prints a
 * pinned config that --check-config accepts; zero-config mode serves the
 * repo's sample workspace; the log file rotates while stdout carries nothing
 * but MCP messages.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { cpSync, existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import {
  closeAllBridges,
  ensureBinary,
  fakeServer,
  REPO,
  startBridge,
  writeConfig,
} from "../support/bridge.ts";
import { initializeParams } from "../support/raw-bridge.ts";
import { requiredUnderCI } from "../support/real-bridge.ts";
import { findTypescriptLanguageServer } from "../support/real-servers.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";

afterEach(closeAllBridges);
afterAll(removeTempDirs);

const tls = await findTypescriptLanguageServer();

const SERVERS_BIN = join(REPO, "test", "servers", "node_modules", ".bin");

function demoCopy(): string {
  const dir = tempDir("theodolite-demo-");
  cpSync(join(REPO, "test", "fixtures", "demo-ts"), dir, { recursive: true });
  return dir;
}

describe("init and zero-config (SPEC §2.1)", () => {
  requiredUnderCI("typescript-language-server", tls);

  test.skipIf(!tls)("init prints a pinned bridge.toml that --check-config accepts", async () => {
    const dir = demoCopy();
    const env = { PATH: `${SERVERS_BIN}:${process.env.PATH ?? ""}`, HOME: process.env.HOME ?? "/" };
    const init = Bun.spawnSync([ensureBinary(), "init", dir], {
      env,
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(init.exitCode).toBe(0);
    const text = init.stdout.toString();
    const doc = parse(text) as {
      workspace: { root: string; servers: string[] }[];
      server: { name: string; command: string; version: string }[];
    };
    expect(doc.workspace[0]?.servers).toContain("typescript-language-server");
    const tls = doc.server.find((s) => s.name === "typescript-language-server");
    expect(tls?.command.startsWith("/")).toBe(true);
    expect(tls?.version).toBe("5.3.0");
    // servers with no files here are left out, with the reason in a comment
    expect(doc.server.some((s) => s.name === "clangd")).toBe(false);
    const path = join(dir, "bridge.toml");
    writeFileSync(path, text);
    const check = Bun.spawnSync([ensureBinary(), "--check-config", path], {
      env,
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(check.stderr.toString()).toBe("");
    expect(check.exitCode).toBe(0);
    expect(check.stdout.toString()).toContain("ok   server.typescript-language-server.version");
  });

  test.skipIf(!tls)("zero-config serves the sample workspace from its directory", async () => {
    const dir = demoCopy();
    const bridge = await startBridge({
      args: [],
      cwd: dir,
      env: { PATH: `${SERVERS_BIN}:${process.env.PATH ?? ""}` },
    });
    const status = await bridge.call("session_status");
    expect((status.structured.bridge as { config: string }).config).toBe("zero-config");
    const sessions = status.structured.sessions as { server: string }[];
    // tsconfig.json is JSON: its server serves it too
    expect(sessions.map((s) => s.server)).toEqual([
      "typescript-language-server",
      "vscode-json-language-server",
    ]);
    const def = await bridge.call("definition", { file: "src/index.ts", line: 3, symbol: "greet" });
    expect(def.isError).toBe(false);
    expect(def.structured).toEqual({
      locations: [{ file: "src/greet.ts", line: 2, column: 17, end_line: 2, end_column: 22 }],
      total: 1,
    });
    expect(bridge.stderr()).toContain("zero-config mode");
  });
});

describe("logs (SPEC §2, §3)", () => {
  test("the log file rotates and stdout carries only MCP messages", async () => {
    const root = tempDir();
    const logFile = join(root, "logs", "bridge.log");
    const config = writeConfig({
      bridge: { log: { level: "debug", file: logFile, max_bytes: 4096, max_files: 2 } },
      workspace: [{ name: "w", root, servers: ["fake"] }],
      server: [
        fakeServer("fake", {
          stderr_lines: Array.from(
            { length: 40 },
            (_, i) => `fake server says ${i} ${"·".repeat(60)}`,
          ),
        }),
      ],
    });
    const proc = Bun.spawn([ensureBinary(), "--config", config, "--isolated"], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    try {
      const send = (msg: object) => proc.stdin.write(`${JSON.stringify(msg)}\n`);
      send({ jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams("raw") });
      send({ jsonrpc: "2.0", method: "notifications/initialized" });
      for (let i = 0; i < 6; i++) {
        send({
          jsonrpc: "2.0",
          id: 10 + i,
          method: "tools/call",
          params: { name: "session_status", arguments: { start: i === 0 } },
        });
      }
      await proc.stdin.end();
      const [out, err] = await Promise.all([
        new Response(proc.stdout).text(),
        new Response(proc.stderr).text(),
      ]);
      await proc.exited;
      const lines = out.split("\n").filter((l) => l.length > 0);
      expect(lines.length).toBe(7); // initialize + 6 calls, nothing else
      for (const line of lines)
        expect((JSON.parse(line) as { jsonrpc: string }).jsonrpc).toBe("2.0");
      expect(err).toContain("theodolite debug");
      const files = readdirSync(join(root, "logs")).sort();
      expect(files).toContain("bridge.log");
      expect(files).toContain("bridge.log.1");
      expect(files.length).toBeLessThanOrEqual(3);
      expect(existsSync(`${logFile}.3`)).toBe(false);
    } finally {
      proc.kill("SIGKILL");
    }
  });
});
