/**
 * Request outcomes (SPEC §4.6, §9.1): the request timeout cancels
 * the LSP request, an MCP cancellation cancels it too, ContentModified is
 * retried a bounded number of times on server events, LSP errors keep their
 * code, and void requests go without `params`
 * (docs/LANGUAGE-SERVERS.md#void-requests-without-params).
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { type FakeProbe, fakeBridge } from "../fake-server/harness.ts";
import { closeAllBridges } from "../support/bridge.ts";
import { removeTempDirs } from "../support/temp-dirs.ts";
import { waitFor } from "../support/wait.ts";

afterEach(closeAllBridges);
afterAll(removeTempDirs);

const HOVER = { "textDocument/hover": { contents: "hello" } };
const AT = { file: "a.fake", line: 1, column: 1 };

/**
 * A bridge over one `a.fake` file served by a fake with `scenario` (hover answered with
 * HOVER unless the scenario says otherwise), and the probe that watches the fake.
 */
const hoverBridge = (scenario: Record<string, unknown>, bridge?: Record<string, unknown>) =>
  fakeBridge({ "a.fake": "alpha\n" }, { responses: HOVER, ...scenario }, {}, bridge);

/** Resolves once the session has no call in flight (bounded: 5 s). */
function noCallInFlight(bridge: Awaited<ReturnType<typeof hoverBridge>>["bridge"], what: string) {
  return waitFor(
    async () => {
      const r = await bridge.call("session_status");
      const s = (r.structured.sessions as { inflight: number }[])[0];
      return s?.inflight === 0;
    },
    5000,
    { what },
  );
}

function hoverId(fake: FakeProbe): number | string {
  const q = fake.requests("textDocument/hover")[0];
  if (!q) throw new Error("the fake saw no hover");
  return q.id;
}

describe("timeouts and cancellation", () => {
  test("request_timeout_ms: RequestTimeout, and the server gets $/cancelRequest", async () => {
    const { fake, bridge } = await hoverBridge(
      { response_delay_ms: { "textDocument/hover": 60_000 } },
      { request_timeout_ms: 400 },
    );
    // started first, under ready_timeout_ms (the handshake and readiness): the one request
    // the 400 ms bound then applies to is the hover, which is never answered
    const start = await bridge.call("session_status", { start: true });
    expect((start.structured.sessions as { state: string }[])[0]?.state).toBe("ready");
    const r = await bridge.call("hover", AT);
    expect(r.isError).toBe(true);
    expect(r.structured.code).toBe("RequestTimeout");
    expect(r.structured.details).toEqual({ method: "textDocument/hover", timeout_ms: 400 });
    const sent = fake.state().requests.map((q) => q.method);
    expect(sent.filter((m) => m !== "initialize")).toEqual(["textDocument/hover"]);
    const id = hoverId(fake);
    await fake.until((s) => (s.cancelled.includes(id) ? true : undefined), "$/cancelRequest");
  });

  test("an MCP cancellation cancels the LSP request", async () => {
    const { fake, bridge } = await hoverBridge({
      response_delay_ms: { "textDocument/hover": 60_000 },
    });
    const abort = new AbortController();
    const call = bridge.client.callTool({ name: "hover", arguments: AT }, undefined, {
      signal: abort.signal,
      timeout: 30_000,
    });
    const settled = call.then(
      () => "resolved",
      (err: unknown) => `rejected: ${String(err)}`,
    );
    await fake.until((s) => s.requests.find((q) => q.method === "textDocument/hover"), "hover");
    abort.abort("the test gave up");
    expect(await settled).toStartWith("rejected");
    const id = hoverId(fake);
    await fake.until((s) => (s.cancelled.includes(id) ? true : undefined), "$/cancelRequest");
    // the bridge is still usable: the session is idle again
    await noCallInFlight(bridge, "the cancelled call to leave the session");
  });
});

describe("server errors", () => {
  test("ContentModified twice: retried once the server is idle, then answered", async () => {
    const { fake, bridge } = await hoverBridge({
      content_modified_times: { "textDocument/hover": 2 },
      log_messages: [{ text: "reloaded", on: "textDocument/hover", after_ms: 50 }],
    });
    const r = await bridge.call("hover", AT);
    expect(r.isError).toBe(false);
    expect(r.structured.text).toBe("hello");
    expect(fake.requests("textDocument/hover").length).toBe(3);
  });

  test("ContentModified more often than the retry bound: ServerError keeping -32801", async () => {
    const { fake, bridge } = await hoverBridge({
      content_modified_times: { "textDocument/hover": 100 },
      log_messages: [{ text: "reloaded", on: "textDocument/hover", after_ms: 20 }],
    });
    const r = await bridge.call("hover", AT);
    expect(r.structured.code).toBe("ServerError");
    expect((r.structured.details as { lsp_code: number }).lsp_code).toBe(-32801);
    expect(fake.requests("textDocument/hover").length).toBe(4);
  });

  test("ContentModified as the server's last word: retried at once, no wait for an event", async () => {
    // nothing follows the error: a retry that waited for the next server event would end
    // only at the 60 s bound (the test's own timeout is shorter)
    const { fake, bridge } = await hoverBridge(
      { content_modified_times: { "textDocument/hover": 1 } },
      { request_timeout_ms: 60_000 },
    );
    const r = await bridge.call("hover", AT);
    expect(r.isError).toBe(false);
    expect(fake.requests("textDocument/hover").length).toBe(2);
  }, 20_000);

  test("ContentModified while a load runs: the retry comes after its progress ended", async () => {
    const { fake, bridge } = await hoverBridge({
      content_modified_times: { "textDocument/hover": 1 },
      progress: [
        { token: "load", title: "Loading", begin_on: "textDocument/hover", end_after_ms: 300 },
      ],
    });
    const r = await bridge.call("hover", AT);
    expect(r.isError).toBe(false);
    const order = fake
      .state()
      .events.filter(
        (e) =>
          (e.method === "textDocument/hover" && e.dir === "in") ||
          (e.method === "$/progress" && e.dir === "out"),
      )
      .map((e) => (e.method === "$/progress" ? (e.detail as { kind: string }).kind : "hover"));
    // (the retried hover begins the task again: only what came before it counts)
    expect(order.slice(0, 4)).toEqual(["hover", "begin", "end", "hover"]);
  });

  test("a cancellation while waiting to retry after ContentModified ends the call at once", async () => {
    // the load never ends: only the bound (60 s here) or the client's cancellation can end
    // the wait for the server to be idle again
    const { fake, bridge } = await hoverBridge(
      {
        content_modified_times: { "textDocument/hover": 1 },
        progress: [
          {
            token: "load",
            title: "Loading",
            begin_on: "textDocument/hover",
            end_on: "never/arrives",
          },
        ],
      },
      { request_timeout_ms: 60_000 },
    );
    const abort = new AbortController();
    const settled = bridge.client
      .callTool({ name: "hover", arguments: AT }, undefined, { signal: abort.signal })
      .then(
        () => "resolved",
        (err: unknown) => `rejected: ${String(err)}`,
      );
    await fake.until((s) => s.requests.find((q) => q.method === "textDocument/hover"), "hover");
    abort.abort("the test gave up");
    expect(await settled).toStartWith("rejected");
    await noCallInFlight(
      bridge,
      "the cancelled call to leave the session (not after the 60 s bound)",
    );
    expect(fake.requests("textDocument/hover").length).toBe(1);
  });

  test("an LSP error is ServerError with details.lsp_code", async () => {
    const { bridge } = await hoverBridge({
      error_on: { "textDocument/hover": { code: -32603, message: "boom in hover" } },
    });
    const r = await bridge.call("hover", AT);
    expect(r.isError).toBe(true);
    expect(r.structured.code).toBe("ServerError");
    expect(r.structured.details).toEqual({
      method: "textDocument/hover",
      lsp_code: -32603,
      lsp_message: "boom in hover",
    });
  });
});

describe("void requests", () => {
  test("shutdown and exit are sent without a params key", async () => {
    const { fake, bridge } = await hoverBridge({});
    expect((await bridge.call("hover", AT)).isError).toBe(false);
    const restarted = await bridge.call("session_restart", { server: "fake" });
    expect(restarted.structured).toEqual({ workspace: "w", server: "fake", state: "ready" });
    const records = fake.records();
    const shutdown = records.filter((m) => m.method === "shutdown");
    const exit = records.filter((m) => m.method === "exit");
    expect(shutdown.length).toBe(1);
    expect(exit.length).toBe(1);
    expect(Object.keys(shutdown[0] as object).sort()).toEqual(["id", "jsonrpc", "method"]);
    expect(Object.keys(exit[0] as object).sort()).toEqual(["jsonrpc", "method"]);
  });
});
