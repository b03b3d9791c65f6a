/**
 * The shared bridge through the built binary (SPEC §2.2), on the fake server: a second
 * client attaches to the first one's bridge (one daemon, one server tree) and every
 * answer is byte for byte a dedicated bridge's; the gate decides per connection; a
 * bridge killed mid-call answers typed through every relay, the next call works and
 * nothing of the old tree is left; idle exit; two clients starting at once make one
 * bridge.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { lspRange } from "../fake-server/harness.ts";
import { fakeServer, writeConfig } from "../support/bridge.ts";
import { gone } from "../support/processes.ts";
import { initializeParams } from "../support/raw-bridge.ts";
import {
  conversation,
  type LineClient,
  type SharedWorld,
  worldPerTest,
} from "../support/shared-bridge.ts";
import { tempDir } from "../support/temp-dirs.ts";
import { waitFor, within } from "../support/wait.ts";

/** A workspace with two files and a fake server with canned answers; `extra` merged into its scenario. */
function workspace(bridge: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const root = tempDir();
  writeFileSync(join(root, "a.fake"), "alpha beta\ngamma\n");
  writeFileSync(join(root, "b.fake"), "delta\n");
  const B = pathToFileURL(join(root, "b.fake")).href;
  const A = pathToFileURL(join(root, "a.fake")).href;
  const record = join(root, "..", `${root.split("/").pop()}.record`);
  const scenario = {
    capabilities: {
      textDocumentSync: 1,
      definitionProvider: true,
      referencesProvider: true,
      hoverProvider: true,
      documentSymbolProvider: true,
    },
    responses: {
      "textDocument/hover": {
        contents: { kind: "markdown", value: "**alpha**" },
        range: lspRange(0, 0, 5),
      },
      "textDocument/definition": [{ uri: B, range: lspRange(0, 0, 5) }],
      "textDocument/references": [
        { uri: A, range: lspRange(1, 0, 5) },
        { uri: B, range: lspRange(0, 0, 5) },
      ],
      "textDocument/documentSymbol": [
        { name: "alpha", kind: 12, range: lspRange(0, 0, 10), selectionRange: lspRange(0, 0, 5) },
      ],
    },
    publish_on_sync: [
      {
        message: "unused",
        severity: 2,
        line: 0,
        character: 6,
        end_character: 10,
        code: "W1",
        source: "fake",
      },
      {
        message: "bad",
        severity: 1,
        line: 1,
        character: 0,
        end_character: 5,
        code: 7,
        source: "fake",
      },
    ],
    record,
    ...extra,
  };
  const config = writeConfig({
    bridge,
    workspace: [{ name: "w", root, servers: ["fake"] }],
    server: [fakeServer("fake", scenario)],
  });
  return { root, config, record };
}

const READS: [string, Record<string, unknown>][] = [
  ["hover", { file: "a.fake", line: 1, column: 1 }],
  ["definition", { file: "a.fake", line: 1, column: 1 }],
  ["references", { file: "a.fake", line: 1, column: 1 }],
  ["document_symbols", { file: "a.fake" }],
  ["diagnostics", { file: "a.fake" }],
];

let world: SharedWorld;
worldPerTest((w) => {
  world = w;
});

describe("attach", () => {
  test("a second client reuses the bridge: one daemon, one server tree, answers byte-identical to --isolated", async () => {
    const { config } = workspace();
    const dedicated = await conversation(world.client(["--config", config, "--isolated"]), READS);
    const first = await conversation(world.client(["--config", config]), READS);
    const daemon = await world.only();
    const second = await conversation(world.client(["--config", config]), READS);
    expect(first).toEqual(dedicated);
    expect(second).toEqual(dedicated);
    const after = await world.only();
    expect(after.pid).toBe(daemon.pid);
    expect(after.clients).toHaveLength(2);
    expect(after.sessions).toHaveLength(1);
    expect(after.sessions[0]?.pid).toBe(daemon.sessions[0]?.pid as number);
  });

  test("a changed configuration is another bridge", async () => {
    const { root } = workspace();
    const config = (idle: number) =>
      writeConfig({
        bridge: { shared_idle_seconds: idle },
        workspace: [{ name: "w", root, servers: ["fake"] }],
        server: [fakeServer("fake", {})],
      });
    const [a, b] = [config(60), config(61)];
    for (const path of [a, b, a]) {
      expect((await world.run(["call", "session_status", "--config", path])).code).toBe(0);
    }
    const bridges = await world.status();
    expect(bridges.map((b) => b.roots)).toEqual([[root], [root]]);
    expect(new Set(bridges.map((b) => b.socket)).size).toBe(2);
  });

  test("two clients starting at once end with one bridge", async () => {
    const { config } = workspace();
    const [a, b] = await Promise.all([
      world.run(["call", "session_status", "--config", config]),
      world.run(["call", "session_status", "--config", config]),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const pidOf = (out: string) => (JSON.parse(out) as { bridge: { pid: number } }).bridge.pid;
    expect(pidOf(a.out)).toBe(pidOf(b.out));
    expect((await world.only()).pid).toBe(pidOf(a.out));
  });
});

describe("each connection is its own client", () => {
  test("the gate lists and records per connection", async () => {
    const { config } = workspace({ mutation: "gated", mutation_allowlist: ["allowed"] });
    const allowed = world.client(["--config", config]);
    const other = world.client(["--config", config]);
    await allowed.initialize("allowed");
    await other.initialize("other");
    const names = async (c: LineClient) => {
      c.send({ id: 2, method: "tools/list" });
      const list = JSON.parse(await c.answer(2)) as { result: { tools: { name: string }[] } };
      return list.result.tools.map((t) => t.name);
    };
    expect(await names(allowed)).toContain("rename_apply");
    expect(await names(other)).not.toContain("rename_apply");
    other.call(3, "rename_apply", { file: "a.fake", line: 1, column: 1, new_name: "x" });
    expect(await other.answer(3)).toContain("UnsupportedMethod");
    const decisions = async (c: LineClient) => {
      c.call(4, "session_status", {});
      const r = JSON.parse(await c.answer(4)) as {
        result: { structuredContent: Record<string, unknown> };
      };
      return r.result.structuredContent.gate_decisions as { client: string; reason: string }[];
    };
    expect(await decisions(other)).toEqual([
      expect.objectContaining({ client: "other", reason: "not_allowlisted" }),
    ]);
    expect(await decisions(allowed)).toEqual([]);
    expect((await world.only()).clients.map((c) => c.name).sort()).toEqual(["allowed", "other"]);
  });
});

describe("the relay", () => {
  test("at stdin's end what was asked is still answered, then it exits 0", async () => {
    const { config } = workspace({}, { response_delay_ms: { "textDocument/hover": 300 } });
    const c = world.client(["--config", config]);
    c.send({ id: 1, method: "initialize", params: initializeParams("c") });
    c.send({ method: "notifications/initialized" });
    c.call(3, "hover", { file: "a.fake", line: 1, column: 1 });
    c.endInput();
    expect(await within(c.exited, 20_000, "the relay's exit")).toBe(0);
    expect(JSON.parse(await c.answer(3, 0)).result.structuredContent).toMatchObject({
      text: "**alpha**",
    });
  });
});

describe("one client's faults cost that client only", () => {
  test("an oversized message is refused on its connection, a crash mid-message ends only its own", async () => {
    const { config } = workspace();
    const rude = world.client(["--config", config]);
    const calm = world.client(["--config", config]);
    await rude.initialize("rude");
    await calm.initialize("calm");
    const pad = "x".repeat(9 * 1024 * 1024);
    rude.send({ id: 3, method: "tools/call", params: { name: "hover", arguments: { pad } } });
    expect(JSON.parse(await rude.answer(3))).toMatchObject({ id: 3, error: { code: -32600 } });
    calm.call(4, "hover", { file: "a.fake", line: 1, column: 1 });
    expect(JSON.parse(await calm.answer(4)).result.isError).toBeUndefined();
    // half a message, then the client dies: the bridge keeps serving the other
    await rude.sendRaw(
      `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"hover","arguments":{"pad":"${pad.slice(0, 1 << 20)}`,
    );
    rude.kill();
    await waitFor(async () => (await world.only()).clients.length === 1, 10_000, {
      what: "the dead client's connection closed",
    });
    calm.call(6, "document_symbols", { file: "a.fake" });
    expect(JSON.parse(await calm.answer(6)).result.isError).toBeUndefined();
  });
});

describe("bounds", () => {
  test("past 32 clients one more is refused at once, told the limit: its call and its relay fail typed, nothing hangs", async () => {
    const { config } = workspace();
    expect((await world.run(["call", "session_status", "--config", config])).code).toBe(0);
    const bridge = await world.only();
    const held = await Promise.all(
      Array.from({ length: 32 }, () =>
        Bun.connect({ unix: bridge.socket, socket: { data() {}, close() {} } }),
      ),
    );
    try {
      await waitFor(async () => (await world.only()).clients.length === 32, 10_000, {
        what: "32 clients connected",
      });
      const refused = await world.run(["call", "session_status", "--config", config]);
      expect(refused.code).toBe(1);
      const full = { code: "SessionLimit", details: { shared_bridge: "full", limit_clients: 32 } };
      expect(JSON.parse(refused.err)).toMatchObject(full);
      // an MCP client's relay answers its handshake and every call so, and goes on
      const relay = world.client(["--config", config]);
      const hello = JSON.parse(await relay.initialize("late")) as { error: { data: unknown } };
      expect(hello.error.data).toMatchObject(full);
      relay.call(2, "session_status", {});
      const call = JSON.parse(await relay.answer(2)) as {
        result: { isError: boolean; content: { text: string }[] };
      };
      expect(call.result.isError).toBe(true);
      expect(JSON.parse(call.result.content[0]?.text ?? "{}")).toMatchObject(full);
      expect(relay.lines.join("\n")).not.toContain('"exited"');
    } finally {
      for (const s of held) s.end();
    }
    await waitFor(async () => (await world.only()).clients.length === 0, 10_000, {
      what: "the held connections closed",
    });
    expect((await world.run(["call", "session_status", "--config", config])).code).toBe(0);
  });
});

describe("lifecycle", () => {
  test("a bridge killed mid-call: every relay answers typed, the next call works, nothing of the old tree is left", async () => {
    const { config, record } = workspace(
      {},
      { response_delay_ms: { "textDocument/references": 60_000 } },
    );
    const busy = world.client(["--config", config]);
    const idle = world.client(["--config", config]);
    await busy.initialize("busy");
    await idle.initialize("idle");
    const old = await world.only();
    busy.call(5, "references", { file: "a.fake", line: 1, column: 1 });
    await waitFor(
      () => existsSync(record) && readFileSync(record, "utf8").includes("textDocument/references"),
      20_000,
      {
        what: "the call in flight at the server",
      },
    );
    const tree = (await world.only()).pids;
    expect(tree.length).toBeGreaterThanOrEqual(3); // daemon, supervisor, server
    process.kill(old.pid, "SIGKILL");
    const lost = JSON.parse(await busy.answer(5, 10_000)) as {
      result: { isError: boolean; content: { text: string }[] };
    };
    expect(lost.result.isError).toBe(true);
    expect(JSON.parse(lost.result.content[0]?.text ?? "{}")).toMatchObject({
      code: "SessionDead",
      details: { shared_bridge: "exited" },
    });
    await waitFor(() => tree.every(gone), 10_000, { what: "the old tree gone" });
    // both relays go on, on a new bridge that was told their handshakes
    busy.call(6, "hover", { file: "a.fake", line: 1, column: 1 });
    idle.call(7, "session_status", {});
    expect(JSON.parse(await busy.answer(6)).result.isError).toBeUndefined();
    const status = JSON.parse(await idle.answer(7)) as {
      result: { structuredContent: { bridge: { client: string; pid: number } } };
    };
    expect(status.result.structuredContent.bridge.client).toBe("idle");
    expect(status.result.structuredContent.bridge.pid).not.toBe(old.pid);
    const now = await world.only();
    expect(now.clients.map((c) => c.name).sort()).toEqual(["busy", "idle"]);
    expect(busy.lines.filter((l) => (JSON.parse(l) as { id?: unknown }).id === 5)).toHaveLength(1);
  });

  test("when no new bridge can be had, the message fails typed and the relay goes on", async () => {
    const { config } = workspace();
    const c = world.client(["--config", config]);
    await c.initialize("c");
    const old = await world.only();
    process.kill(old.pid, "SIGKILL");
    await waitFor(() => old.pids.every(gone), 10_000, { what: "the killed tree gone" });
    chmodSync(world.socketDir, 0o755); // no bridge may start here now
    const hover = async (id: number) => {
      c.call(id, "hover", { file: "a.fake", line: 1, column: 1 });
      const r = JSON.parse(await c.answer(id)) as {
        result: { isError: boolean; content: { text: string }[] };
      };
      expect(r.result.isError).toBe(true);
      return JSON.parse(r.result.content[0]?.text ?? "{}") as {
        details?: { shared_bridge?: string };
      };
    };
    // a relay that had not yet seen its bridge die sends the call, and answers it as lost in
    // flight; the call after that is the one that finds no bridge to be had
    let failed = await hover(3);
    if (failed.details?.shared_bridge === "exited") failed = await hover(33);
    expect(failed).toMatchObject({
      code: "SessionDead",
      details: { shared_bridge: "unavailable", cause: "ConfigInvalid", directory: world.socketDir },
    });
    chmodSync(world.socketDir, 0o700);
    c.call(4, "hover", { file: "a.fake", line: 1, column: 1 });
    expect(JSON.parse(await c.answer(4)).result.isError).toBeUndefined();
  });

  test("idle exit: with no client for shared_idle_seconds the bridge and its tree exit", async () => {
    const { config } = workspace({ shared_idle_seconds: 1 });
    const r = await world.run([
      "call",
      "hover",
      '{"file":"a.fake","line":1,"column":1}',
      "--config",
      config,
    ]);
    expect(r.code).toBe(0);
    const bridge = await world.only();
    expect(bridge.pids.length).toBeGreaterThanOrEqual(3);
    await waitFor(() => bridge.pids.every(gone), 15_000, { what: "the idle bridge's tree gone" });
    expect(existsSync(bridge.socket)).toBe(false);
  });

  test("a stale socket file from a killed bridge is replaced; daemon stop ends one", async () => {
    const { config, root } = workspace();
    expect((await world.run(["call", "session_status", "--config", config])).code).toBe(0);
    const first = await world.only();
    process.kill(first.pid, "SIGKILL");
    await waitFor(() => first.pids.every(gone), 10_000, { what: "the killed tree gone" });
    expect(existsSync(first.socket)).toBe(true);
    expect((await world.run(["call", "session_status", "--config", config])).code).toBe(0);
    const second = await world.only();
    expect(second.pid).not.toBe(first.pid);
    expect(second.socket).toBe(first.socket);
    const stop = await world.run(["daemon", "stop", root]);
    expect(JSON.parse(stop.out)).toEqual({
      stopped: [{ pid: second.pid, roots: [root], exited: true }],
    });
    await waitFor(() => second.pids.every(gone), 10_000, { what: "the stopped tree gone" });
  });
});
