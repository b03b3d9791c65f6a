/**
 * The MCP stdio transport in process (SPEC §4.8), on a scripted input and a
 * recording output: what is delivered, what is answered by the transport
 * itself (over-limit, unparsable, invalid), serialization of results made
 * once, EPIPE and end of input, and the single-handshake rule (SPEC §7.1).
 */
import { describe, expect, test } from "bun:test";
import { type JSONRPCMessage, LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { resultFromJson } from "../../../../src/mcp/envelope.ts";
import { McpConnection } from "../../../../src/mcp/protocol.ts";
import {
  CLIENT_JSON_BOUNDS,
  MAX_DEPTH,
  MAX_PENDING_REQUESTS,
} from "../../../../src/mcp/transport/stdio.ts";
import { line, setup } from "../../../support/scripted-stdio.ts";
import { waitFor } from "../../../support/wait.ts";

describe("StdioTransport", () => {
  test("valid messages are delivered as parsed; blank lines ignored", async () => {
    const t = await setup();
    t.input.push(line({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
    t.input.push('\n  \r\n{"jsonrpc":"2.0","method":"notifications/initialized"}');
    t.input.push("\n");
    await t.settle();
    expect(t.delivered).toEqual([
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
    ]);
    expect(t.output.text).toBe("");
  });

  test("an over-limit request is answered -32600 naming the limit, and the next one is served", async () => {
    const t = await setup(1024);
    let dropped = 0;
    t.transport.ondropped = (bytes) => {
      dropped += bytes;
    };
    const huge = { jsonrpc: "2.0", id: 9, method: "tools/call", params: { x: "a".repeat(5000) } };
    const text = line(huge);
    for (let i = 0; i < text.length; i += 700) t.input.push(text.slice(i, i + 700));
    const note = line({
      jsonrpc: "2.0",
      method: "notifications/x",
      params: { x: "b".repeat(5000) },
    });
    t.input.push(note);
    t.input.push(line({ jsonrpc: "2.0", id: 10, method: "ping" }));
    await t.settle();
    // every byte of both over-limit lines is reported let go (the collector's cue), newlines excluded
    expect(dropped).toBe(text.length - 1 + note.length - 1);
    expect(t.delivered).toEqual([{ jsonrpc: "2.0", id: 10, method: "ping" }]);
    const [reply, ...rest] = t.output.messages();
    expect(rest).toEqual([]); // the notification is dropped without an answer
    expect(reply).toMatchObject({
      jsonrpc: "2.0",
      id: 9,
      error: { code: -32600, data: { limit_bytes: 1024, message_bytes: text.length - 1 } },
    });
    expect((reply as { error: { message: string } }).error.message).toContain("at most 1024 bytes");
  });

  test("unparsable lines get -32700 with id null; invalid requests -32600 with their id", async () => {
    const t = await setup();
    t.input.push('{"jsonrpc":"2.0","id":1,\n');
    t.input.push(line({ jsonrpc: "2.0", id: 2, method: "tools/list", params: [1] }));
    t.input.push(line([{ jsonrpc: "2.0", id: 3, method: "ping" }]));
    await t.settle();
    expect(t.delivered).toEqual([]);
    expect(t.output.messages().map((m) => [m.id, (m.error as { code: number }).code])).toEqual([
      [null, -32700],
      [2, -32600],
      [3, -32600],
    ]);
  });

  test("a response goes up only when its id is awaited (the roots asked); any other is dropped", async () => {
    const t = await setup(1 << 20);
    t.transport.awaits = (id) => id === "theodolite-1";
    // 40,000 levels in a response to an id nobody asked for: once a stack overflow in the SDK
    const deep = `${'{"a":'.repeat(40_000)}1${"}".repeat(40_000)}`;
    t.input.push(`{"jsonrpc":"2.0","id":"nobody","result":${deep}}\n`);
    t.input.push(line({ jsonrpc: "2.0", id: 5, result: {} }));
    t.input.push(line({ jsonrpc: "2.0", id: "theodolite-1", result: { roots: [] } }));
    t.input.push(line({ jsonrpc: "2.0", id: 6, method: "ping" }));
    await t.settle();
    expect(t.delivered).toEqual([
      { jsonrpc: "2.0", id: "theodolite-1", result: { roots: [] } },
      { jsonrpc: "2.0", id: 6, method: "ping" },
    ]);
    expect(t.output.text).toBe("");
  });

  test("a request nesting too deep anywhere gets -32600 with its id; the loop reads on", async () => {
    const t = await setup(1 << 20);
    const deep = `${"[".repeat(MAX_DEPTH)}${"]".repeat(MAX_DEPTH)}`;
    const ok = `${"[".repeat(MAX_DEPTH - 3)}${"]".repeat(MAX_DEPTH - 3)}`;
    t.input.push(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"x":${deep}}}\n`);
    t.input.push(`{"jsonrpc":"2.0","method":"notifications/x","params":{"x":${deep}}}\n`);
    t.input.push(`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"x":${ok}}}\n`);
    await t.settle();
    expect(t.delivered.map((m) => ("id" in m ? m.id : "note"))).toEqual([8]);
    expect(t.output.messages()).toEqual([
      {
        jsonrpc: "2.0",
        id: 7,
        error: {
          code: -32600,
          message: `Invalid Request: the message nests deeper than ${MAX_DEPTH} levels of arrays and objects`,
          data: { limit_depth: MAX_DEPTH },
        },
      },
    ]);
  });

  test("a request that would parse into too many objects or values gets -32600 with its id", async () => {
    const t = await setup(1 << 20);
    const { containers, values, shapes } = CLIENT_JSON_BOUNDS;
    const objects = `[${"{},".repeat(containers)}{}]`;
    const numbers = `[${"0,".repeat(values)}0]`;
    const keys = `{${Array.from({ length: shapes + 1 }, (_, i) => `"k${i}":0`).join(",")}}`;
    const fits = `[${"0,".repeat(values - 100)}0]`;
    t.input.push(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"x":${objects}}}\n`);
    t.input.push(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"x":${numbers}}}\n`);
    t.input.push(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"x":${keys}}}\n`);
    t.input.push(`{"jsonrpc":"2.0","method":"notifications/x","params":{"x":${objects}}}\n`);
    t.input.push(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"x":${fits}}}\n`);
    await t.settle();
    expect(t.delivered.map((m) => ("id" in m ? m.id : "note"))).toEqual([4]);
    const errors = t.output.messages().map((m) => {
      const error = m.error as { code: number; data: unknown };
      return [m.id, error.code, error.data];
    });
    expect(errors).toEqual([
      [1, -32600, { limit_containers: containers }],
      [2, -32600, { limit_values: values }],
      [3, -32600, { limit_shapes: shapes }],
    ]);
    const first = t.output.messages()[0] as { error: { message: string } };
    expect(first.error.message).toBe(
      `Invalid Request: the message holds more than ${containers} arrays and objects`,
    );
  });

  test("past MAX_PENDING_REQUESTS waiting requests, one more is refused -32000 at once", async () => {
    const t = await setup();
    for (let id = 1; id <= MAX_PENDING_REQUESTS + 1; id++) {
      t.input.push(line({ jsonrpc: "2.0", id, method: "tools/list" }));
    }
    t.input.push(line({ jsonrpc: "2.0", method: "notifications/x" }));
    await t.settle();
    expect(t.delivered).toHaveLength(MAX_PENDING_REQUESTS + 1); // the notification passes
    expect(t.output.messages()).toEqual([
      {
        jsonrpc: "2.0",
        id: MAX_PENDING_REQUESTS + 1,
        error: {
          code: -32000,
          message: `Server busy: ${MAX_PENDING_REQUESTS} requests are waiting for their answers; send more once some are answered`,
          data: { limit_requests: MAX_PENDING_REQUESTS },
        },
      },
    ]);
    // one answered: room for the next
    await t.transport.send({ jsonrpc: "2.0", id: 1, result: {} });
    t.input.push(line({ jsonrpc: "2.0", id: "next", method: "tools/list" }));
    await t.settle();
    expect(t.delivered.at(-1)).toEqual({ jsonrpc: "2.0", id: "next", method: "tools/list" });
  });

  test("whatever throws above the transport is answered -32603, and the next message is read", async () => {
    const t = await setup();
    t.transport.onmessage = (m) => {
      if ("id" in m && m.id === 1) throw new RangeError("Maximum call stack size exceeded.");
      t.delivered.push(m);
    };
    t.input.push(line({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
    t.input.push(line({ jsonrpc: "2.0", id: 2, method: "tools/list" }));
    await t.settle();
    expect(t.delivered).toEqual([{ jsonrpc: "2.0", id: 2, method: "tools/list" }]);
    expect(t.output.messages()).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } },
    ]);
    expect(t.closed()).toBe(0);
  });

  test("a tool result goes out with the size cap's serialization, equal to the object's JSON", async () => {
    const t = await setup();
    const structured = { total: 1, items: [{ file: 'a "b".c', line: 1, text: "é\n" }] };
    const result = resultFromJson(structured, JSON.stringify(structured));
    await t.transport.send({ jsonrpc: "2.0", id: 4, result } as JSONRPCMessage);
    const [sent] = t.output.messages();
    expect(sent).toEqual({ jsonrpc: "2.0", id: 4, result: JSON.parse(JSON.stringify(result)) });
    expect(t.output.text.endsWith("}\n")).toBe(true);
    expect(t.output.text.split("\n")).toHaveLength(2);
  });

  test("EPIPE on stdout closes the transport once; later sends are dropped quietly", async () => {
    const t = await setup();
    t.output.failWith = Object.assign(new Error("EPIPE: broken pipe, write"), { code: "EPIPE" });
    await t.transport.send({ jsonrpc: "2.0", id: 1, result: {} });
    await t.transport.send({ jsonrpc: "2.0", id: 2, result: {} });
    expect(t.closed()).toBe(1);
    expect(t.input.cancelled).toBe(true);
  });

  test("end of input calls oninputend (the transport stays open for answers); without it, closes", async () => {
    const t = await setup();
    let ended = 0;
    t.transport.oninputend = () => {
      ended++;
    };
    t.input.end();
    await waitFor(() => ended === 1, 5_000, { what: "oninputend" });
    expect(t.closed()).toBe(0);
    await t.transport.send({ jsonrpc: "2.0", id: 1, result: {} });
    expect(t.output.messages()).toHaveLength(1);

    const u = await setup();
    u.input.end();
    await waitFor(() => u.closed() === 1, 5_000, { what: "the transport to close" });
  });

  test("drained() waits for every received request to be answered or cancelled", async () => {
    const t = await setup();
    t.input.push(line({ jsonrpc: "2.0", id: 1, method: "a" }));
    t.input.push(line({ jsonrpc: "2.0", id: 2, method: "b" }));
    await t.settle();
    let drained = false;
    void t.transport.drained().then(() => {
      drained = true;
    });
    // a resolution inside send() would run its callback before send's own continuation
    await t.transport.send({ jsonrpc: "2.0", id: 1, result: {} });
    expect(drained).toBe(false);
    t.input.push(
      line({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } }),
    );
    await t.settle();
    expect(drained).toBe(true);
  });
});

describe("McpConnection: one handshake per connection (SPEC §7.1)", () => {
  const init = (id: number, name: string, params?: unknown) => ({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: params ?? {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name, version: "1" },
    },
  });

  test("a failed initialize leaves it open; the first that succeeds fixes the client; later ones are refused", async () => {
    const t = await setup();
    const connection = new McpConnection(t.transport, {
      serverInfo: { name: "theodolite", version: "0" },
      capabilities: { tools: { listChanged: false } },
    });
    const listedFor: (string | undefined)[] = [];
    connection.handle("tools/list", () => {
      listedFor.push(connection.client()?.name);
      return { tools: [] };
    });
    t.input.push(line(init(1, "bad", { protocolVersion: 7 })));
    t.input.push(line(init(2, "first")));
    t.input.push(line(init(3, "second")));
    t.input.push(line({ jsonrpc: "2.0", id: 4, method: "tools/list" }));
    t.input.push(line({ jsonrpc: "2.0", id: 5, method: "no/such" }));
    t.input.push(line({ jsonrpc: "2.0", id: 6, method: "ping" }));
    await t.settle();
    await waitFor(() => t.output.messages().length === 6, 5_000, { what: "six answers" });
    const byId = new Map(t.output.messages().map((m) => [m.id, m]));
    const code = (id: number) => (byId.get(id)?.error as { code?: number } | undefined)?.code;
    expect(code(1)).toBe(-32602);
    expect(byId.get(2)?.result).toEqual({
      protocolVersion: "2025-06-18",
      capabilities: { tools: { listChanged: false } },
      serverInfo: { name: "theodolite", version: "0" },
    });
    expect(code(3)).toBe(-32600);
    expect(byId.get(4)?.result).toEqual({ tools: [] });
    expect(code(5)).toBe(-32601);
    expect(byId.get(6)?.result).toEqual({});
    expect(listedFor).toEqual(["first"]);
  });

  test("an unknown protocol version is answered with the latest; a cancelled request gets no answer", async () => {
    const t = await setup();
    const connection = new McpConnection(t.transport, {
      serverInfo: { name: "theodolite", version: "0" },
      capabilities: {},
    });
    let aborted = false;
    connection.handle(
      "tools/call",
      (_request, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener("abort", () => {
            aborted = true;
            resolve({ content: [] });
          });
        }),
    );
    t.input.push(
      line(
        init(1, "c", {
          protocolVersion: "1999-01-01",
          capabilities: {},
          clientInfo: { name: "c", version: "1" },
        }),
      ),
    );
    t.input.push(line({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "x" } }));
    t.input.push(
      line({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } }),
    );
    t.input.push(line({ jsonrpc: "2.0", id: 3, method: "ping" }));
    await t.settle();
    await waitFor(() => t.output.messages().length === 2 && aborted, 5_000, {
      what: "the initialize and ping answers, and the abort",
    });
    // one more round trip: an answer to the cancelled request would be out by then
    t.input.push(line({ jsonrpc: "2.0", id: 4, method: "ping" }));
    await t.settle();
    await waitFor(() => t.output.messages().length >= 3, 5_000, { what: "the second ping" });
    const [first, ...rest] = t.output.messages();
    expect((first?.result as { protocolVersion?: string } | undefined)?.protocolVersion).toBe(
      LATEST_PROTOCOL_VERSION,
    );
    expect(rest.map((m) => m.id)).toEqual([3, 4]);
  });
});
