/**
 * What the bridge queues for a server, bounded (src/lsp/message-writer.ts, SPEC §8.2): a
 * server that stops reading makes the writer fail once the bytes waiting pass the bound —
 * documents, answers to its requests, anything, each at its serialized size; one that
 * reads never sees it, and gets every message whole, in order.
 */
import { expect, test } from "bun:test";
import { Emitter, type Message, type RAL } from "vscode-jsonrpc/node";
import { BoundedMessageWriter, serialized } from "../../../src/lsp/message-writer.ts";

/** A writable whose writes settle only when `drain()` is called (a server that stopped reading). */
function stalled() {
  const waiting: (() => void)[] = [];
  const chunks: (string | Uint8Array)[] = [];
  const writable: RAL.WritableStream = {
    write: (data: string | Uint8Array) => {
      chunks.push(data);
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    end: () => {},
    onError: (l) => new Emitter<[Error, Message | undefined, number | undefined]>().event(l),
    onEnd: (l) => new Emitter<void>().event(l),
    onClose: (l) => new Emitter<void>().event(l),
  };
  const drain = (): void => {
    for (const resolve of waiting.splice(0)) resolve();
  };
  return { writable, drain, chunks };
}

const didOpenOf = (text: string): Message =>
  ({
    jsonrpc: "2.0",
    method: "textDocument/didOpen",
    params: { textDocument: { uri: "file:///a", languageId: "x", version: 1, text } },
  }) as Message;
const didOpen = (chars: number): Message => didOpenOf("x".repeat(chars));

/** An answer to `workspace/configuration`: every item the same settings, shared in memory. */
const answer = (items: number): Message => {
  const settings = { python: { analysis: { extraPaths: ["a".repeat(1000)] } } };
  return { jsonrpc: "2.0", id: 1, result: Array(items).fill(settings) } as Message;
};

test("a message weighs its bytes in UTF-8, answers as much as documents", () => {
  const open = didOpenOf("é".repeat(1000));
  expect(serialized(open).length).toBe(Buffer.byteLength(JSON.stringify(open)));
  expect(serialized(open).length).toBeGreaterThan(2000);
  expect(serialized(answer(100)).length).toBeGreaterThan(100_000);
});

test("past the bound of bytes waiting, the writer fails and says why", async () => {
  const { writable } = stalled();
  const writer = new BoundedMessageWriter(writable, 10_000);
  const errors: string[] = [];
  writer.onError(([e]) => errors.push(e.message));
  const first = writer.write(didOpen(4000));
  const second = writer.write(didOpen(4000));
  await expect(writer.write(didOpen(4000))).rejects.toThrow("the server does not read its input");
  expect(errors).toEqual([
    "the server does not read its input: more than 10000 bytes of messages wait for it",
  ]);
  // and every later write fails the same way
  await expect(writer.write(didOpen(1))).rejects.toThrow("does not read its input");
  void first;
  void second;
});

test("answers to the server count: large ones that it does not read trip the bound", async () => {
  const { writable } = stalled();
  const writer = new BoundedMessageWriter(writable, 1 << 20);
  const writes = [writer.write(answer(400)), writer.write(answer(400))];
  for (const w of writes) void w.catch(() => {});
  await expect(writer.write(answer(400))).rejects.toThrow("does not read its input");
});

test("a server that reads gets each message whole, header first, in order", async () => {
  const { writable, drain, chunks } = stalled();
  const writer = new BoundedMessageWriter(writable);
  const done = [writer.write(didOpen(3)), writer.write(answer(1))];
  while (chunks.length < 4) {
    await new Promise((resolve) => setImmediate(resolve));
    drain();
  }
  await Promise.all(done);
  const text = chunks.map((c) => (typeof c === "string" ? c : Buffer.from(c).toString()));
  const first = JSON.stringify(didOpen(3));
  expect(text[0]).toBe(`Content-Length: ${first.length}\r\n\r\n`);
  expect(text[1]).toBe(first);
  expect(JSON.parse(text[3] as string)).toEqual(JSON.parse(JSON.stringify(answer(1))));
});

test("a server that reads never meets the bound", async () => {
  const { writable, drain } = stalled();
  const writer = new BoundedMessageWriter(writable, 10_000);
  for (let i = 0; i < 100; i++) {
    let done = false;
    const written = writer.write(didOpen(4000)).then(() => {
      done = true;
    });
    // the header and the body: each write waits for the server to take it; the library
    // moves on to the next on a later turn of the event loop
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      drain();
    }
    await written;
  }
});
