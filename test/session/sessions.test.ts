/**
 * Sessions (SPEC §9.1): at most max_sessions live — using another
 * pair evicts the least recently used idle one (its whole supervisor gone),
 * SessionLimit when none is idle; main servers first, data-file servers last;
 * a crashed server is SessionDead with its exit code and stderr tail until
 * session_restart, and works afterwards.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { isDead, readProc } from "../../src/process/proctree.ts";
import { bridgeFor, FakeProbe, fakeBridge, sessionOf, workspace } from "../fake-server/harness.ts";
import { closeAllBridges } from "../support/bridge.ts";
import { removeTempDirs } from "../support/temp-dirs.ts";
import { waitFor } from "../support/wait.ts";

afterEach(closeAllBridges);
afterAll(removeTempDirs);

const HOVER = { "textDocument/hover": { contents: "hello" } };
const AT = { file: "a.fake", line: 1, column: 1 };

function twoWorkspaces(one: FakeProbe, two: FakeProbe, scenario: Record<string, unknown> = {}) {
  const ws1 = workspace({ "a.fake": "one\n" });
  const ws2 = workspace({ "a.fake": "two\n" });
  return {
    ws: ws1,
    bridge: { max_sessions: 1 },
    servers: [one.server({ responses: HOVER, ...scenario }), two.server({ responses: HOVER })],
    workspaces: [
      { name: "w1", root: ws1.root, servers: [one.name] },
      { name: "w2", root: ws2.root, servers: [two.name] },
    ],
  };
}

describe("max_sessions", () => {
  test("max_sessions = 1: using the second workspace evicts the idle first one and its tree", async () => {
    const one = new FakeProbe("one");
    const two = new FakeProbe("two");
    const { bridge } = await bridgeFor(twoWorkspaces(one, two));
    expect((await bridge.call("hover", { workspace: "w1", ...AT })).isError).toBe(false);
    const first = await sessionOf(bridge, "w1", "one");
    expect(first.state).toBe("ready");
    const pids = first.pids as { supervisor: number; server: number };
    expect(pids.supervisor).toBeGreaterThan(0);

    expect((await bridge.call("hover", { workspace: "w2", ...AT })).isError).toBe(false);
    const evicted = await sessionOf(bridge, "w1", "one");
    expect(evicted.state).toBe("not_started");
    expect(evicted.pids).toEqual({ supervisor: null, server: null });
    expect((await sessionOf(bridge, "w2", "two")).state).toBe("ready");
    await waitFor(() => isDead(readProc(pids.supervisor)) && isDead(readProc(pids.server)), 5000, {
      what: "the evicted supervisor and server to be gone",
    });
    // eviction is a clean LSP shutdown
    expect(one.records().map((m) => m.method)).toContain("shutdown");
  });

  test("SessionLimit when the only session is busy and another pair is needed", async () => {
    const one = new FakeProbe("one");
    const two = new FakeProbe("two");
    const { bridge } = await bridgeFor(
      twoWorkspaces(one, two, { response_delay_ms: { "textDocument/hover": 1500 } }),
    );
    const slow = bridge.call("hover", { workspace: "w1", ...AT });
    await one.until((s) => s.requests.find((q) => q.method === "textDocument/hover"), "hover");
    const r = await bridge.call("hover", { workspace: "w2", ...AT });
    expect(r.isError).toBe(true);
    expect(r.structured.code).toBe("SessionLimit");
    expect(r.structured.details).toEqual({ max_sessions: 1, busy: ["w1/one"] });
    expect((await sessionOf(bridge, "w2", "two")).state).toBe("not_started");
    const done = await slow;
    expect(done.structured).toEqual({ text: "hello", range: null });
    // once idle, the first one is evictable again
    expect((await bridge.call("hover", { workspace: "w2", ...AT })).isError).toBe(false);
  });

  test("two first calls at once never start past the limit", async () => {
    const one = new FakeProbe("one");
    const two = new FakeProbe("two");
    const { bridge } = await bridgeFor(twoWorkspaces(one, two));
    const [a, b] = await Promise.all([
      bridge.call("hover", { workspace: "w1", ...AT }),
      bridge.call("hover", { workspace: "w2", ...AT }),
    ]);
    // one of them starts; the other finds it busy (starting), with nothing idle to evict
    const outcomes = [a, b].map((r) => (r.isError ? String(r.structured.code) : "ok")).sort();
    expect(outcomes).toEqual(["SessionLimit", "ok"]);
    const states = [await sessionOf(bridge, "w1", "one"), await sessionOf(bridge, "w2", "two")].map(
      (e) => e.state,
    );
    expect(states.filter((st) => st !== "not_started")).toEqual(["ready"]);
  });
});

describe("standing (SPEC §9.1)", () => {
  test("start: true starts the main server first and stops none for a data-file server; a data file's call evicts another", async () => {
    const ws = workspace({ "a.fake": "a\n", "b.src": "b\n", "c.json": "{}\n" });
    const main = new FakeProbe("main");
    const other = new FakeProbe("other");
    const data = new FakeProbe("data");
    const only = (ext: string, more: Record<string, unknown> = {}) => ({
      extensions: { [ext]: "fake" },
      ...more,
    });
    const { bridge } = await bridgeFor({
      ws,
      bridge: { max_sessions: 2 },
      // listed data first: the list's order ranks only within a standing
      servers: [
        data.server(
          { responses: { "textDocument/documentSymbol": [] } },
          only("json", { data_files: true }),
        ),
        main.server({}, only("fake")),
        other.server({}, only("src")),
      ],
      workspaces: [{ name: "w", root: ws.root, servers: ["data", "main", "other"] }],
    });
    const started = await bridge.call("session_status", { start: true });
    const entries = started.structured.sessions as {
      server: string;
      state: string;
      start_error?: { code: string };
    }[];
    expect(entries.map((e) => [e.server, e.state, e.start_error?.code])).toEqual([
      ["data", "not_started", "SessionLimit"],
      ["main", "ready", undefined],
      ["other", "ready", undefined],
    ]);
    // main is the least recently used, yet the JSON file's server evicts the other one
    expect((await bridge.call("document_symbols", { file: "c.json" })).isError).toBe(false);
    expect((await sessionOf(bridge, "w", "main")).state).toBe("ready");
    expect((await sessionOf(bridge, "w", "other")).state).toBe("not_started");
    expect((await sessionOf(bridge, "w", "data")).state).toBe("ready");
  });
});

describe("crash", () => {
  test("a crashed server is SessionDead (exit code, stderr tail) until session_restart", async () => {
    const { bridge } = await fakeBridge(
      { "a.fake": "alpha\n" },
      {
        responses: HOVER,
        crash_on: ["textDocument/definition"],
        exit_code: 7,
        stderr_lines: ["fake-ls: about to explode", "fake-ls: last words"],
      },
    );
    expect((await bridge.call("hover", AT)).isError).toBe(false);
    const during = await bridge.call("definition", AT);
    expect(during.structured.code).toBe("SessionDead");
    const checkDead = (r: { structured: Record<string, unknown> }) => {
      expect(r.structured.code).toBe("SessionDead");
      expect(String(r.structured.hint)).toContain("session_restart");
      const d = r.structured.details as Record<string, unknown>;
      expect(d.exit_code).toBe(7);
      expect(d.signal).toBeNull();
      expect(String(d.stderr_tail)).toContain("fake-ls: about to explode\nfake-ls: last words");
    };
    checkDead(during);
    for (let i = 0; i < 2; i++) checkDead(await bridge.call("hover", AT));
    const s = await sessionOf(bridge, "w", "fake");
    expect(s.state).toBe("dead");
    expect((s.last_exit as { code: number }).code).toBe(7);

    const restarted = await bridge.call("session_restart", { server: "fake" });
    expect(restarted.structured).toEqual({ workspace: "w", server: "fake", state: "ready" });
    const after = await bridge.call("hover", AT);
    expect(after.structured).toEqual({ text: "hello", range: null });
  });
});
