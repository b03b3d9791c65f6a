/**
 * Requests enter the SDK Protocol at its request entry, past the per-message schema
 * classification (src/mcp/request-entry.ts): with the pinned SDK the entry exists and is
 * used, requests are answered as before (results, unknown methods, tools/call's own
 * checks), and notifications — a cancellation among them — still take the SDK's path.
 */
import { describe, expect, test } from "bun:test";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { enterRequestsDirectly, requestEntryOf } from "../../../src/mcp/request-entry.ts";

class MemoryTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  sent: JSONRPCMessage[] = [];
  async start(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
  }
  async close(): Promise<void> {}
  /** the answer to request `id`, once sent */
  async answer(id: number): Promise<Record<string, unknown>> {
    for (let i = 0; i < 1000; i++) {
      const m = this.sent.find((s) => "id" in s && s.id === id && !("method" in s));
      if (m) return m as unknown as Record<string, unknown>;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    throw new Error(`request ${id} was never answered`);
  }
}

async function connected() {
  const server = new Server({ name: "t", version: "1" }, { capabilities: { tools: {} } });
  let listed = 0;
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    listed += 1;
    return { tools: [] };
  });
  const transport = new MemoryTransport();
  await server.connect(transport);
  // count what reaches the SDK's own classifying path
  const classifiedBy = transport.onmessage as (m: JSONRPCMessage) => void;
  const classified: JSONRPCMessage[] = [];
  transport.onmessage = (m) => {
    classified.push(m);
    classifiedBy(m);
  };
  const direct = enterRequestsDirectly(server, transport);
  const deliver = (m: Record<string, unknown>) =>
    transport.onmessage?.({ jsonrpc: "2.0", ...m } as JSONRPCMessage);
  deliver({
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "c", version: "1" },
    },
  });
  await transport.answer(1);
  deliver({ method: "notifications/initialized" });
  return { server, transport, direct, deliver, classified, listed: () => listed };
}

describe("the SDK's request entry", () => {
  test("exists in the pinned SDK and is used", async () => {
    const { server, direct } = await connected();
    expect(requestEntryOf(server)).toBeFunction();
    expect(direct).toBe(true);
  });

  test("requests are answered without the classifier; notifications still take it", async () => {
    const { transport, deliver, classified, listed } = await connected();
    deliver({ id: 2, method: "tools/list" });
    expect((await transport.answer(2)).result).toEqual({ tools: [] });
    expect(listed()).toBe(1);
    deliver({ id: 3, method: "no/such/method" });
    expect((await transport.answer(3)).error).toMatchObject({ code: -32601 });
    deliver({ id: 4, method: "ping" });
    expect((await transport.answer(4)).result).toEqual({});
    // initialize (id 1) and both requests went straight in; the notification did not
    expect(classified.map((m) => ("id" in m ? m.id : (m as { method: string }).method))).toEqual([
      "notifications/initialized",
    ]);
  });

  test("a cancellation (a notification) still aborts the request it names", async () => {
    const { server, transport, deliver } = await connected();
    let aborted = false;
    server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => {
      return new Promise((resolve) => {
        const done = () => {
          aborted = true;
          resolve({ tools: [] });
        };
        if (extra.signal.aborted) done();
        else extra.signal.addEventListener("abort", done);
      });
    });
    deliver({ id: 5, method: "tools/list" });
    deliver({ method: "notifications/cancelled", params: { requestId: 5 } });
    for (let i = 0; i < 100 && !aborted; i++) {
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    expect(aborted).toBe(true);
    // MCP: a cancelled request gets no answer
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(transport.sent.some((m) => "id" in m && m.id === 5)).toBe(false);
  });
});
