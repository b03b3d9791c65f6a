/**
 * Readiness depends on what the server will do (SPEC §3.3), through the compiled bridge
 * against the fake server: with `project_files`, a progress task the server reports only
 * for a configured project is expected only when the warm-up file lies in one; the
 * warm-up opens a file the project includes; `warmup_publish` waits for the warm-up
 * file's first publish; a condition that can never hold is a typed error at once, and a
 * wait on a server that shows no activity never ends with "call again".
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { fakeBridge, sessionOf } from "../fake-server/harness.ts";
import { closeAllBridges } from "../support/bridge.ts";
import { removeTempDirs } from "../support/temp-dirs.ts";

afterEach(closeAllBridges);
afterAll(removeTempDirs);

const HOVER = { "textDocument/hover": { contents: "hello" } };
/** A TypeScript-like server: .ts files, loading reported only for a project (like tsserver's). */
const TS = { languages: ["typescript"], extensions: { ts: "typescript" } };
const LOADING = {
  token: "load",
  title: "Initializing JS/TS language features",
  begin_on: "textDocument/didOpen",
  end_after_ms: 200,
};
const READY = {
  warmup_open: "**/*.ts",
  progress: ["^Initializing JS/TS language features"],
  progress_required: true,
  project_files: ["tsconfig.json", "jsconfig.json"],
};

describe("project_files", () => {
  test("a directory without tsconfig.json: ready without the progress, which never comes", async () => {
    // far beyond the test's own bound: a wait for the progress would fail the test
    const { bridge } = await fakeBridge(
      { "src/a.ts": "export const a = 1;\n" },
      { responses: HOVER },
      { ...TS, ready: READY },
      { ready_timeout_ms: 60_000 },
    );
    const r = await bridge.call("hover", { file: "src/a.ts", line: 1, column: 14 });
    expect(r.isError).toBe(false);
    const s = await sessionOf(bridge, "w", "fake");
    const readiness = s.readiness as { conditions: string[]; warmup: Record<string, unknown> };
    expect(readiness.conditions[1]).toContain("(not expected: src/a.ts is in no project");
    expect(readiness.warmup).toMatchObject({ file: "src/a.ts", project: null });
  }, 20_000);

  test("with tsconfig.json: the file it includes is opened, and its loading is waited for", async () => {
    const { ws, fake, bridge } = await fakeBridge(
      {
        "compile.d.ts": "export declare const x: number;\n",
        "tsconfig.json": '{ "include": ["src"] }\n',
        "src/a.ts": "export const a = 1;\n",
      },
      { progress: [LOADING], responses: HOVER },
      { ...TS, ready: READY },
    );
    const r = await bridge.call("hover", { file: "src/a.ts", line: 1, column: 14 });
    expect(r.isError).toBe(false);
    const opens = fake.events("textDocument/didOpen", "in").map((e) => e.detail);
    expect(opens[0]).toEqual({ uri: ws.uri("src/a.ts"), version: 1 });
    const end = fake.events("$/progress", "out").at(-1);
    expect(end?.detail).toMatchObject({ kind: "end" });
    const hover = fake.requests("textDocument/hover")[0] as { seq: number };
    expect(hover.seq).toBeGreaterThan(end?.seq ?? Number.POSITIVE_INFINITY);
  });
});

describe("warmup_publish", () => {
  test("the first request waits for the warm-up file's first publish", async () => {
    const { fake, bridge } = await fakeBridge(
      { "a.ts": "export const a = 1;\n" },
      { publish_on_sync: [], publish_delay_ms: 300, responses: HOVER },
      { ...TS, ready: { warmup_open: "**/*.ts", warmup_publish: true } },
    );
    const r = await bridge.call("hover", { file: "a.ts", line: 1, column: 14 });
    expect(r.isError).toBe(false);
    const publish = fake.events("textDocument/publishDiagnostics", "out")[0];
    const hover = fake.requests("textDocument/hover")[0] as { seq: number };
    expect(hover.seq).toBeGreaterThan(publish?.seq ?? Number.POSITIVE_INFINITY);
  });
});

describe("waits that cannot end", () => {
  test("a required progress only an open begins, and nothing to open: ServerInitFailed at once", async () => {
    const { bridge } = await fakeBridge(
      { "notes.txt": "no source here\n" },
      { progress: [LOADING] },
      { ready: { warmup_open: "**/*.fake", progress: ["^Initializing"], progress_required: true } },
      { ready_timeout_ms: 60_000 },
    );
    const r = await bridge.call("workspace_symbols", { query: "a" });
    expect(r.structured.code).toBe("ServerInitFailed");
    expect(String(r.structured.message)).toContain("cannot become ready");
    expect(String(r.structured.message)).toContain("no usable file matches warmup_open **/*.fake");
    // the session is dead until session_restart: the next call says so, with the cause
    const again = await bridge.call("workspace_symbols", { query: "a" });
    expect(again.structured.code).toBe("SessionDead");
    expect(String(again.structured.message)).toContain("cannot become ready");
    expect(String(again.structured.hint)).toContain("session_restart");
  }, 20_000);

  test("a server whose start failed: SessionDead's hint says what to fix before restarting", async () => {
    const failing = { code: -32603, message: "Could not find a valid TypeScript installation" };
    const { bridge } = await fakeBridge(
      { "a.fake": "alpha\n" },
      { error_on: { initialize: failing } },
    );
    const first = await bridge.call("workspace_symbols", { query: "a" });
    expect(first.structured.code).toBe("ServerInitFailed");
    const again = await bridge.call("workspace_symbols", { query: "a" });
    expect(again.structured.code).toBe("SessionDead");
    expect(String(again.structured.hint)).toContain("failed to start (ServerInitFailed)");
    expect(String(again.structured.hint)).toContain("check the server's args");
  });

  test("ReadyTimeout while the server shows nothing: no call-again hint", async () => {
    const { bridge } = await fakeBridge(
      { "a.fake": "alpha\n" },
      {},
      { ready: { log_message: "never printed" } },
      { ready_timeout_ms: 3000 },
    );
    const r = await bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    expect(r.structured.code).toBe("ReadyTimeout");
    expect(String(r.structured.hint)).not.toContain("call again");
    expect(String(r.structured.hint)).toContain("log_message /never printed/");
  });
});
