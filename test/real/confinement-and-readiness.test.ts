/**
 * Confinement and readiness with real servers (SPEC §3.3, §8.1): workspace confinement on
 * a real workspace (a symlink leading out is PathOutsideWorkspace, and no server starts
 * for it), and readiness by state for all four installed servers at once in one bridge
 * (session_status with start: true reports each one's conditions, nothing pending, and
 * its ready_ms).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serverTable } from "../../src/config/toml.ts";
import type { ServerConfig } from "../../src/config/types.ts";
import { closeBridgesAndTempDirs, startBridge, writeConfig } from "../support/bridge.ts";
import { fails, ok, present, readyByState } from "../support/real-bridge.ts";
import {
  copyFixture,
  findClangd,
  findPyright,
  findRustAnalyzer,
  findTypescriptLanguageServer,
  materializeCFixture,
  type RealServer,
} from "../support/real-servers.ts";
import { tempDir } from "../support/temp-dirs.ts";

afterAll(closeBridgesAndTempDirs);

const clangd = await findClangd();

describe.skipIf(!clangd)("confinement on a real workspace", () => {
  test("symlinks and .. leading out of the root are PathOutsideWorkspace; nothing starts", async () => {
    if (!present("clangd", clangd)) return;
    const root = materializeCFixture();
    const outside = tempDir("theodolite-outside-");
    writeFileSync(join(outside, "secret.c"), "int secret(void) { return 42; }\n");
    symlinkSync(join(outside, "secret.c"), join(root, "escape.c"));
    symlinkSync(outside, join(root, "elsewhere"));
    const config = writeConfig({
      workspace: [{ name: "ws", root, servers: ["clangd"] }],
      server: [serverTable(clangd.config)],
    });
    await using bridge = await startBridge({ config });
    for (const file of [
      "escape.c",
      "elsewhere/secret.c",
      "../secret.c",
      join(outside, "secret.c"),
    ]) {
      const err = await fails(bridge, "hover", { file, line: 1, column: 5 });
      expect(err.code).toBe("PathOutsideWorkspace");
      expect(err.hint).toBeString();
    }
    const status = await ok(bridge, "session_status");
    expect((status.sessions as { state: string }[]).map((s) => s.state)).toEqual(["not_started"]);
    // a symlink that stays inside the root is fine
    symlinkSync(join(root, "util.c"), join(root, "alias.c"));
    const sym = await ok(bridge, "document_symbols", { file: "alias.c" });
    expect(sym.total).toBe(2);
  });
});

const found: Record<string, RealServer | null> = {
  clangd,
  pyright: await findPyright(),
  "typescript-language-server": await findTypescriptLanguageServer(),
  "rust-analyzer": await findRustAnalyzer(),
};

/** Each server's workspace and the conditions its preset declares (prefixes). */
const PLAN: Record<string, { fixture: () => string; conditions: string[] }> = {
  clangd: {
    fixture: () => materializeCFixture(),
    conditions: ["warmup_open", "progress backgroundIndexProgress"],
  },
  pyright: { fixture: () => copyFixture("python"), conditions: ["log_message /Found"] },
  "typescript-language-server": {
    fixture: () => copyFixture("ts"),
    conditions: ["warmup_open", "progress ^Initializing JS/TS", "warmup_publish"],
  },
  "rust-analyzer": {
    fixture: () => copyFixture("rust"),
    conditions: ["quiescent", "probe workspace/symbol"],
  },
};

const available = Object.entries(found).filter(([name, f]) => present(name, f)) as [
  string,
  RealServer,
][];

describe.skipIf(available.length === 0)("readiness of every installed server", () => {
  test("session_status start: true → each session ready by its own conditions, with ready_ms", async () => {
    const servers: ServerConfig[] = available.map(([, f]) => f.config);
    const workspaces = available.map(([name]) => {
      const root = PLAN[name]?.fixture() ?? "";
      return { name: `ws-${name}`, root, servers: [name] };
    });
    const config = writeConfig({
      bridge: { max_sessions: 4, ready_timeout_ms: 120_000 },
      workspace: workspaces,
      server: servers.map(serverTable),
    });
    await using bridge = await startBridge({ config });
    const status = await ok(bridge, "session_status", { start: true });
    const sessions = status.sessions as Record<string, unknown>[];
    expect(sessions.map((s) => s.server).sort()).toEqual(available.map(([n]) => n).sort());
    for (const s of sessions) {
      readyByState(s, PLAN[s.server as string]?.conditions ?? []);
      expect(s.start_error).toBeUndefined();
      console.log(`${s.server}: ready in ${(s.readiness as { ready_ms: number }).ready_ms} ms`);
    }
    expect((status.bridge as { live_sessions: number }).live_sessions).toBe(sessions.length);
  });
});
