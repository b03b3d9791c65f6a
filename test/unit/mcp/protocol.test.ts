/**
 * The protocol layer's one path to the client (SPEC §2.1, §4.8): a request sent, its
 * response awaited — bounded in number and in time, ended by the connection closing — and
 * the roots asked over it only of a client that offers them, after its `initialized`.
 */
import { describe, expect, test } from "bun:test";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import {
  MAX_CLIENT_REQUESTS,
  McpConnection,
  type MessageTransport,
} from "../../../src/mcp/protocol.ts";
import { askRoots } from "../../../src/mcp/roots.ts";
import { within } from "../../support/wait.ts";

/** A transport whose client is the test: what the connection sends, and what it is fed. */
class Wire implements MessageTransport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  awaits?: (id: RequestId) => boolean;
  sent: Record<string, unknown>[] = [];
  private waiters: (() => void)[] = [];
  async start(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message as Record<string, unknown>);
    for (const w of this.waiters.splice(0)) w();
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
  /** What the client sends: a response goes up only when awaited, as the stdio transport does. */
  feed(message: Record<string, unknown>): void {
    const m = message as JSONRPCMessage;
    if (!("method" in m) && !(m.id !== undefined && this.awaits?.(m.id))) return;
    this.onmessage?.(m);
  }
  /** The next request the connection sends (bounded). */
  async request(): Promise<{ id: RequestId; method: string }> {
    const found = () => this.sent.find((m) => "method" in m && "id" in m && !m.seen);
    while (found() === undefined) {
      await within(new Promise<void>((r) => this.waiters.push(r)), 5_000, "a request");
    }
    const m = found() as Record<string, unknown>;
    m.seen = true;
    return m as unknown as { id: RequestId; method: string };
  }
}

function connect(capabilities: Record<string, unknown> = { roots: { listChanged: true } }) {
  const wire = new Wire();
  const connection = new McpConnection(wire, {
    serverInfo: { name: "theodolite", version: "0" },
    capabilities: {},
  });
  wire.feed({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities,
      clientInfo: { name: "c", version: "1" },
    },
  });
  return { wire, connection };
}

describe("requests to the client", () => {
  test("the response to its id resolves it; an error response rejects it; others are not taken", async () => {
    const { wire, connection } = connect();
    const asked = connection.request("roots/list", {}, 5_000);
    const { id, method } = await wire.request();
    expect(method).toBe("roots/list");
    wire.feed({ jsonrpc: "2.0", id: "someone-else", result: { roots: [] } });
    wire.feed({ jsonrpc: "2.0", id, result: { roots: [{ uri: "file:///p" }] } });
    expect(await asked).toEqual({ roots: [{ uri: "file:///p" }] });
    // answered once: a second response to the same id is nobody's
    expect(wire.awaits?.(id)).toBe(false);
    const failing = connection.request("roots/list", {}, 5_000);
    wire.feed({
      jsonrpc: "2.0",
      id: (await wire.request()).id,
      error: { code: -32601, message: "no" },
    });
    expect(await failing.catch((e: Error) => e.message)).toContain("no");
  });

  test("bounded: no response within the timeout rejects; MAX_CLIENT_REQUESTS wait at most; closing ends all", async () => {
    const { wire, connection } = connect();
    expect(await connection.request("roots/list", {}, 20).catch((e: Error) => e.message)).toBe(
      "no response to roots/list within 20 ms",
    );
    const waiting = Array.from({ length: MAX_CLIENT_REQUESTS }, () =>
      connection.request("roots/list", {}, 60_000).catch((e: Error) => e.message),
    );
    expect(await connection.request("roots/list", {}, 60_000).catch((e: Error) => e.message)).toBe(
      `${MAX_CLIENT_REQUESTS} requests to the client are waiting`,
    );
    await wire.close();
    expect(await Promise.all(waiting)).toEqual(
      Array(MAX_CLIENT_REQUESTS).fill("the connection closed"),
    );
  });

  test("notifications/roots/list_changed reaches onrootschanged", () => {
    const { wire, connection } = connect();
    let changed = 0;
    connection.onrootschanged = () => {
      changed++;
    };
    wire.feed({ jsonrpc: "2.0", method: "notifications/roots/list_changed" });
    expect(changed).toBe(1);
  });
});

describe("askRoots", () => {
  test("a client without the roots capability is not asked", async () => {
    const { wire, connection } = connect({});
    expect(await askRoots(connection)).toEqual({
      none: "the client offers no roots (no `roots` capability)",
    });
    expect(wire.sent.filter((m) => "method" in m)).toEqual([]);
  });

  test("asked once the client said initialized; its roots' URIs in its order", async () => {
    const { wire, connection } = connect();
    const answer = askRoots(connection);
    wire.feed({ jsonrpc: "2.0", method: "notifications/initialized" });
    const { id } = await wire.request();
    wire.feed({
      jsonrpc: "2.0",
      id,
      result: { roots: [{ uri: "file:///b", name: "b" }, { uri: "file:///a" }] },
    });
    expect(await answer).toEqual({ uris: ["file:///b", "file:///a"] });
  });

  test("an answer that is no list of roots, or an error, means none", async () => {
    const { wire, connection } = connect();
    wire.feed({ jsonrpc: "2.0", method: "notifications/initialized" });
    const bad = askRoots(connection);
    wire.feed({ jsonrpc: "2.0", id: (await wire.request()).id, result: { roots: "x" } });
    expect(await bad).toEqual({ none: "the client's roots/list answer is not a list of roots" });
    const failed = askRoots(connection);
    const id = (await wire.request()).id;
    wire.feed({ jsonrpc: "2.0", id, error: { code: -32603, message: "x".repeat(10_000) } });
    const none = (await failed) as { none: string };
    expect(none.none.startsWith("roots/list failed: ")).toBe(true);
    expect(none.none.length).toBeLessThan(300);
  });
});
