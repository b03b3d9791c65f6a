/**
 * The bounded framing of the server's stdout (src/lsp/message-reader.ts, SPEC §8): messages
 * however the bytes are cut, a header or a body over its bound refused before it is kept,
 * each byte looked at once, and nothing but JSON-RPC messages handed on.
 */
import { describe, expect, test } from "bun:test";
import { Emitter, type Message, type RAL } from "vscode-jsonrpc";
import {
  BoundedMessageReader,
  classify,
  MAX_HEADER_BYTES,
  SERVER_JSON_BOUNDS,
} from "../../../src/lsp/message-reader.ts";

const MAX = 1 << 20;

function harness(max = MAX) {
  const data = new Emitter<Uint8Array>();
  const close = new Emitter<void>();
  const readable: RAL.ReadableStream = {
    onData: (l) => data.event(l),
    onError: () => ({ dispose() {} }),
    onEnd: () => ({ dispose() {} }),
    onClose: (l) => close.event(l),
  };
  const reader = new BoundedMessageReader(readable, max);
  const messages: Message[] = [];
  const errors: string[] = [];
  let closed = false;
  reader.onError((e) => errors.push(e.message));
  reader.onClose(() => {
    closed = true;
  });
  reader.listen((m) => messages.push(m));
  return {
    messages,
    errors,
    closed: () => closed,
    push: (bytes: Uint8Array | string) =>
      data.fire(typeof bytes === "string" ? Buffer.from(bytes) : bytes),
    end: () => close.fire(),
  };
}

function framed(value: unknown): string {
  const body = JSON.stringify(value);
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

const note = { jsonrpc: "2.0", method: "window/logMessage", params: { message: "é 😀" } };
const answer = { jsonrpc: "2.0", id: 1, result: { ok: true } };

describe("framing", () => {
  test("cut at every byte, two messages in a row, multi-byte text intact", () => {
    const bytes = Buffer.from(
      `${framed(note)}Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n${framed(answer)}`,
    );
    for (let cut = 1; cut < bytes.length; cut += 7) {
      const h = harness();
      h.push(bytes.subarray(0, cut));
      h.push(bytes.subarray(cut));
      expect(h.errors).toEqual([]);
      expect(h.messages).toEqual([note, answer] as Message[]);
    }
    const h = harness();
    for (const byte of bytes) h.push(new Uint8Array([byte]));
    expect(h.messages).toEqual([note, answer] as Message[]);
  });

  test("the end of the stream is reported", () => {
    const h = harness();
    h.end();
    expect(h.closed()).toBe(true);
  });
});

describe("bounds", () => {
  test("a header that never ends: refused at MAX_HEADER_BYTES, the rest ignored in linear time", () => {
    const h = harness();
    const chunk = Buffer.alloc(64 * 1024, "x");
    const t0 = performance.now();
    for (let i = 0; i < 1024; i++) h.push(chunk); // 64 MiB
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(h.errors).toEqual([`a message header longer than ${MAX_HEADER_BYTES} bytes`]);
    h.push(framed(note));
    expect(h.messages).toEqual([]);
  });

  test("Content-Length: 4000000000 is refused from the header, before any body byte", () => {
    const h = harness();
    h.push("Content-Length: 4000000000\r\n\r\n");
    expect(h.errors).toEqual([
      `a message of 4000000000 bytes, over bridge.max_server_message_bytes (${MAX})`,
    ]);
    h.push(Buffer.alloc(1 << 20, "{"));
    expect(h.errors).toHaveLength(1);
  });

  test("a body of exactly the bound passes; one byte more does not", () => {
    const pad = (n: number) => ({ jsonrpc: "2.0", id: 1, result: "a".repeat(n) });
    const base = JSON.stringify(pad(0)).length;
    const fits = harness();
    fits.push(framed(pad(MAX - base)));
    expect(fits.errors).toEqual([]);
    expect(fits.messages).toHaveLength(1);
    const over = harness();
    over.push(framed(pad(MAX - base + 1)));
    expect(over.errors[0]).toContain(`a message of ${MAX + 1} bytes`);
  });

  test("malformed headers are refused", () => {
    for (const [header, why] of [
      ["Content-Type: application/json\r\n\r\n", "a header without Content-Length"],
      ["Content-Length: nope\r\n\r\n", 'Content-Length "nope"'],
      ["Content-Length: -1\r\n\r\n", 'Content-Length "-1"'],
      ["this is not LSP\r\n\r\n", "a header line without a name and a colon"],
      ["Content-Length: 2\r\nContent-Type: x; charset=latin1\r\n\r\n{}", 'charset "latin1"'],
    ]) {
      const h = harness();
      h.push(header as string);
      expect(h.errors.length, header).toBe(1);
      expect(h.errors[0]).toContain(why as string);
    }
  });
});

describe("what a body would parse into", () => {
  test("past SERVER_JSON_BOUNDS it is refused from its bytes, never parsed; within, handed on", () => {
    const { containers, values } = SERVER_JSON_BOUNDS;
    const wide = (items: string) => `{"jsonrpc":"2.0","method":"x","params":[${items}]}`;
    const cases: [string, string][] = [
      [wide(`${"{},".repeat(containers)}{}`), `holds more than ${containers} arrays and objects`],
      [wide(`${"0,".repeat(values)}0`), `holds more than ${values} values`],
    ];
    for (const [body, why] of cases) {
      const h = harness(64 << 20);
      h.push(`Content-Length: ${body.length}\r\n\r\n${body}`);
      expect(h.messages).toEqual([]);
      expect(h.errors).toEqual([expect.stringContaining(why)]);
      expect(h.errors[0]).toContain(`a message of ${body.length} bytes that`);
    }
    const h = harness(64 << 20);
    h.push(framed({ jsonrpc: "2.0", method: "x", params: Array(values - 100).fill(0) }));
    expect(h.errors).toEqual([]);
    expect(h.messages).toHaveLength(1);
  });
});

describe("what is handed on", () => {
  test("not JSON, or JSON that is no message, is refused", () => {
    for (const body of ["{", "[1,2]", "42", '{"jsonrpc":"2.0"}', '{"id":{"x":1}}']) {
      const h = harness();
      h.push(`Content-Length: ${body.length}\r\n\r\n${body}`);
      expect(h.errors, body).toHaveLength(1);
      expect(h.messages).toEqual([]);
    }
  });

  test("a 20 KB nest that is no message never reaches the library (which pretty-prints it)", () => {
    const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
    expect(classify(JSON.parse(deep))).toBe("a message that is not a JSON object");
  });

  test("requests, notifications and responses pass; a response to a null id is dropped", () => {
    expect(classify({ jsonrpc: "2.0", id: "a", method: "m" })).toEqual({
      jsonrpc: "2.0",
      id: "a",
      method: "m",
    } as Message);
    expect(classify(note)).toEqual(note as Message);
    expect(classify(answer)).toEqual(answer as Message);
    expect(classify({ jsonrpc: "2.0", id: 2, error: { code: 1, message: "x" } })).not.toBeNull();
    expect(classify({ jsonrpc: "2.0", id: null, error: { code: 1, message: "x" } })).toBeNull();
    expect(classify({ jsonrpc: "2.0", id: 1, method: "m", params: 1 })).toMatchObject({ id: 1 });
    expect(classify({ id: [1], method: "m" })).toBe(
      "a request whose id is neither a string nor a number",
    );
  });

  test("a response with neither result nor error becomes an error answer to its request", () => {
    expect(classify({ jsonrpc: "2.0", id: 3 })).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32603, message: "the response had neither a result nor an error" },
    } as Message);
  });
});
