/**
 * Readiness by state (SPEC §3.3), through the compiled bridge over
 * MCP stdio against the fake server: each condition alone, the
 * rust-analyzer traps, ReadyTimeout naming what is pending, the hold on
 * semantic requests while a matching progress task runs after start-up, and
 * readiness progress relayed as MCP notifications/progress. Order is read
 * from the fake's event log (`seq`), never from wall-clock sleeps.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { type FakeProbe, fakeBridge, sessionOf } from "../fake-server/harness.ts";
import type { FakeEvent } from "../fake-server/state.ts";
import { closeAllBridges } from "../support/bridge.ts";
import { removeTempDirs } from "../support/temp-dirs.ts";
import { waitFor } from "../support/wait.ts";

afterEach(closeAllBridges);
afterAll(removeTempDirs);

const HOVER = { "textDocument/hover": { contents: "hello" } };
const FILES = { "a.fake": "alpha beta\n" };

function lastSeq(events: FakeEvent[]): number {
  const last = events[events.length - 1];
  if (!last) throw new Error("no such event");
  return last.seq;
}

async function hoverSeq(fake: FakeProbe): Promise<number> {
  const hovers = fake.requests("textDocument/hover");
  expect(hovers.length).toBe(1);
  return (hovers[0] as { seq: number }).seq;
}

describe("start-up conditions, each alone", () => {
  test("quiescent: an initial quiescent:true before any busy status does not count (rust-analyzer trap)", async () => {
    const server_status = [
      { health: "ok", quiescent: true, after_ms: 0 },
      { health: "ok", quiescent: false, after_ms: 150 },
      { health: "ok", quiescent: true, message: "loaded", after_ms: 400 },
    ];
    const { fake, bridge } = await fakeBridge(
      FILES,
      { server_status, responses: HOVER },
      { ready: { quiescent: true } },
    );
    const r = await bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    expect(r.isError).toBe(false);
    expect(r.structured).toEqual({ text: "hello", range: null });
    const statuses = fake.events("experimental/serverStatus", "out");
    expect(statuses.map((e) => e.detail)).toEqual([
      { health: "ok", quiescent: true },
      { health: "ok", quiescent: false },
      { health: "ok", quiescent: true, message: "loaded" },
    ]);
    // the tool's request reached the server only after the quiescent that followed the busy one
    expect(await hoverSeq(fake)).toBeGreaterThan(lastSeq(statuses));
    const s = await sessionOf(bridge, "w", "fake");
    expect((s.readiness as { server_status: unknown }).server_status).toEqual({
      health: "ok",
      quiescent: true,
      message: "loaded",
    });
  });

  test('quiescent with health "error": ServerInitFailed with the message, and the session is dead', async () => {
    const server_status = [
      { health: "warning", quiescent: false, after_ms: 0 },
      { health: "error", quiescent: true, message: "failed to find any Cargo.toml", after_ms: 100 },
    ];
    const { fake, bridge } = await fakeBridge(
      FILES,
      { server_status, responses: HOVER },
      { ready: { quiescent: true } },
    );
    const r = await bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    expect(r.isError).toBe(true);
    expect(r.structured.code).toBe("ServerInitFailed");
    expect(String(r.structured.message)).toContain("failed to find any Cargo.toml");
    expect(fake.requests("textDocument/hover")).toEqual([]);
    let last: Record<string, unknown> = {};
    await waitFor(
      async () => {
        last = await sessionOf(bridge, "w", "fake");
        return last.state === "dead";
      },
      5000,
      { what: "the unhealthy session to be dead" },
    );
    expect((last.pids as { server: unknown }).server).toBeNull();
    expect((last.last_error as { code: string }).code).toBe("ServerInitFailed");
    // dead, never a healthy ready, never restarted implicitly
    const again = await bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    expect(again.structured.code).toBe("SessionDead");
    const details = again.structured.details as { error: { code: string } };
    expect(details.error.code).toBe("ServerInitFailed");
  });

  test("progress + progress_required: waits for a matching task to begin (after the create request is answered) and end", async () => {
    const progress = [
      {
        token: "backgroundIndexProgress",
        title: "indexing",
        begin_after_ms: 100,
        steps: [{ message: "1/2", percentage: 50 }],
        end_after_ms: 300,
      },
    ];
    const { fake, bridge } = await fakeBridge(
      FILES,
      { progress, responses: HOVER },
      { ready: { progress: ["^indexing$"], progress_required: true } },
    );
    const r = await bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    expect(r.isError).toBe(false);
    const state = fake.state();
    // clangd's trap: nothing is reported until the client answers the create request
    expect(state.progressCreateAnswers).toEqual([{ method: "window/workDoneProgress/create" }]);
    const kinds = fake.events("$/progress", "out").map((e) => (e.detail as { kind: string }).kind);
    expect(kinds).toEqual(["begin", "report", "end"]);
    expect(await hoverSeq(fake)).toBeGreaterThan(lastSeq(fake.events("$/progress", "out")));
  });

  test("warmup_open: the first sorted matching file is opened, and the other conditions are evaluated after it", async () => {
    // like typescript-language-server: loading starts only with the first didOpen
    const { ws, fake, bridge } = await fakeBridge(
      {
        "zz.fake": "z\n",
        "src/b.fake": "b\n",
        "a/z.fake": "az\n",
        "a/y.fake": "ay\n",
        ".hidden/0.fake": "hidden\n",
        "node_modules/0.fake": "module\n",
      },
      { log_messages: [{ text: "project loaded", on: "textDocument/didOpen" }] },
      { ready: { warmup_open: "**/*.fake", log_message: "^project loaded$" } },
    );
    const r = await bridge.call("session_status", { start: true });
    expect(r.isError).toBe(false);
    const s = (r.structured.sessions as Record<string, unknown>[])[0] as Record<string, unknown>;
    expect(s.state).toBe("ready");
    expect(s.open_documents).toBe(1);
    const opens = fake.events("textDocument/didOpen", "in");
    expect(opens.map((e) => e.detail)).toEqual([{ uri: ws.uri("a/y.fake"), version: 1 }]);
    expect(Object.keys(fake.state().documents)).toEqual([ws.uri("a/y.fake")]);
  });

  test("log_message: ready on the first matching window/logMessage", async () => {
    const log_messages = [
      { text: "starting up", after_ms: 0 },
      { text: "Found 3 source files", after_ms: 300 },
    ];
    const { fake, bridge } = await fakeBridge(
      FILES,
      { log_messages, responses: HOVER },
      { ready: { log_message: "Found \\d+ source files?" } },
    );
    const r = await bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    expect(r.isError).toBe(false);
    const found = fake
      .events("window/logMessage", "out")
      .filter((e) => e.detail === "Found 3 source files");
    expect(await hoverSeq(fake)).toBeGreaterThan(lastSeq(found));
  });

  test("probe: fails twice, retried only on the next server event, then ready", async () => {
    // the server's own activity: one log line 100 ms after each probe
    const { fake, bridge } = await fakeBridge(
      FILES,
      {
        probe_fail_times: 2,
        log_messages: [{ text: "loading", on: "workspace/symbol", after_ms: 100 }],
        responses: { ...HOVER, "workspace/symbol": [] },
      },
      { ready: { probe: { method: "workspace/symbol", params: { query: "" } } } },
    );
    const r = await bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    expect(r.isError).toBe(false);
    const events = fake.state().events;
    const hover = events.find((e) => e.method === "textDocument/hover" && e.dir === "in");
    const probes = events.filter((e) => e.method === "workspace/symbol" && e.dir === "in");
    expect(probes.length).toBe(3);
    expect(hover?.seq ?? 0).toBeGreaterThan(lastSeq(probes));
    expect(fake.requests("workspace/symbol").map((p) => p.params)).toEqual([
      { query: "" },
      { query: "" },
      { query: "" },
    ]);
    // between two probes there is always a server event: no retry on a timer
    for (let i = 1; i < probes.length; i++) {
      const from = (probes[i - 1] as FakeEvent).seq;
      const to = (probes[i] as FakeEvent).seq;
      const between = events.filter(
        (e) => e.dir === "out" && e.method === "window/logMessage" && e.seq > from && e.seq < to,
      );
      expect(between.length).toBeGreaterThan(0);
    }
  });

  test("never ready: ReadyTimeout names every pending condition", async () => {
    // the handshake counts toward it too: room for a slow start on a loaded machine
    const { bridge } = await fakeBridge(
      FILES,
      { progress: [{ token: "t1", title: "Indexing", end_on: "never/sent" }] },
      { ready: { quiescent: true, progress: ["^Indexing"], log_message: "never printed" } },
      { ready_timeout_ms: 4000 },
    );
    const r = await bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    expect(r.isError).toBe(true);
    expect(r.structured.code).toBe("ReadyTimeout");
    expect(r.structured.details).toEqual({
      workspace: "w",
      server: "fake",
      pending: ["quiescent", 'progress "Indexing" active', "log_message /never printed/"],
    });
  });
});

describe("readiness after start-up and MCP progress", () => {
  test("a matching progress task begun after ready holds the next request until it ends", async () => {
    const { ws, fake, bridge } = await fakeBridge(
      FILES,
      {
        progress: [
          {
            token: "reindex",
            title: "Reindexing",
            begin_on: "textDocument/didChange",
            end_after_ms: 1200,
          },
        ],
        responses: HOVER,
      },
      { ready: { progress: ["^Reindexing$"] } },
    );
    const at = { file: "a.fake", line: 1, column: 1 };
    expect((await bridge.call("hover", at)).isError).toBe(false);
    ws.write("a.fake", "alpha beta gamma\n");
    expect((await bridge.call("hover", at)).isError).toBe(false); // sends didChange
    await waitFor(
      async () => {
        const s = await sessionOf(bridge, "w", "fake");
        return (s.progress as { token: string }[]).some((t) => t.token === "reindex");
      },
      1000,
      { what: "the reindex task to be active in session_status" },
    );
    const r = await bridge.call("hover", at);
    expect(r.isError).toBe(false);
    const events = fake.state().events;
    const end = events.find(
      (e) => e.method === "$/progress" && (e.detail as { kind: string }).kind === "end",
    );
    const hovers = events.filter((e) => e.method === "textDocument/hover" && e.dir === "in");
    expect(hovers.length).toBe(3);
    expect(end).toBeDefined();
    expect((hovers[2] as FakeEvent).seq).toBeGreaterThan(end?.seq ?? Number.MAX_SAFE_INTEGER);
  });

  test("a tool call with a progressToken receives notifications/progress while it waits", async () => {
    const { bridge } = await fakeBridge(
      FILES,
      {
        progress: [
          {
            token: "load",
            title: "indexing",
            steps: [
              { message: "1/2", percentage: 50, after_ms: 100 },
              { message: "2/2", percentage: 100, after_ms: 100 },
            ],
            end_after_ms: 500,
          },
        ],
        responses: HOVER,
      },
      { ready: { progress: ["^indexing$"], progress_required: true } },
    );
    const seen: Progress[] = [];
    const r = await bridge.client.callTool(
      { name: "hover", arguments: { file: "a.fake", line: 1, column: 1 } },
      undefined,
      { timeout: 30_000, onprogress: (p) => seen.push(p) },
    );
    expect(r.isError).toBeFalsy();
    expect(seen.length).toBeGreaterThan(0);
    const messages = seen.map((p) => p.message ?? "");
    expect(messages.some((m) => m.includes("indexing 1/2 50%"))).toBe(true);
    for (let i = 1; i < seen.length; i++) {
      expect((seen[i] as Progress).progress).toBeGreaterThan((seen[i - 1] as Progress).progress);
    }
  });
});
