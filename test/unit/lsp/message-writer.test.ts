/**
 * What the bridge queues for a server, bounded (src/lsp/message-writer.ts, SPEC §8.2): a
 * server that stops reading makes the writer fail once the bytes waiting pass the bound —
 * documents, answers to its requests, anything, each at its serialized size; one that
 * reads never sees it, and gets every message whole, in order.
 */
import { expect, test } from "bun:test";
import { Emitter, type Message, type RAL } from "vscode-jsonrpc/node";
import { BoundedMessageWriter, messageBytes } from "../../../src/lsp/message-writer.ts";
import { LONG_STRING, PIECE_CHARS } from "../../../src/lsp/outgoing.ts";
import { waitFor } from "../../support/wait.ts";

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
  expect(messageBytes(open)).toBe(Buffer.byteLength(JSON.stringify(open)));
  expect(messageBytes(open)).toBeGreaterThan(2000);
  expect(messageBytes(answer(100))).toBeGreaterThan(100_000);
  // a long text: weighed with its escapes, before anything of its JSON is made
  const escaped = didOpenOf(`\u0001"\n€😀${"\u001f".repeat(LONG_STRING)}`);
  expect(messageBytes(escaped)).toBe(Buffer.byteLength(JSON.stringify(escaped)));
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

/** What the writer wrote, as one text, once every write was taken. */
async function writtenWhole(messages: Message[]): Promise<{ text: string; chunks: number }> {
  const { writable, drain, chunks } = stalled();
  const writer = new BoundedMessageWriter(writable);
  let settled = false;
  const done = Promise.all(messages.map((m) => writer.write(m))).then(() => {
    settled = true;
  });
  while (!settled) {
    await new Promise((resolve) => setImmediate(resolve));
    drain();
  }
  await done;
  const bytes = Buffer.concat(chunks.map((c) => (typeof c === "string" ? Buffer.from(c) : c)));
  return { text: bytes.toString("utf8"), chunks: chunks.length };
}

/** The LSP framing of each message as JSON.stringify makes it. */
const framed = (m: Message) => {
  const json = JSON.stringify(m);
  return `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`;
};

test("a long document is written in pieces, byte for byte what JSON.stringify makes", async () => {
  // every escape class, an astral character across each piece boundary, a key left out
  const unit = `a\u0000\b\t\n\u000b\f\r\u001f"\\é€\u2028${"x".repeat(1000)}`;
  let text = unit.repeat(Math.ceil((3 * PIECE_CHARS) / unit.length));
  text = `${text.slice(0, PIECE_CHARS - 1)}😀${text.slice(PIECE_CHARS - 1)}`;
  const change = {
    jsonrpc: "2.0",
    method: "textDocument/didChange",
    params: {
      textDocument: { uri: "file:///a", version: 2, extra: undefined },
      contentChanges: [{ text }, { text: "short" }, { text }],
    },
  } as unknown as Message;
  const { text: written, chunks } = await writtenWhole([didOpenOf(text), change, answer(2)]);
  expect(written).toBe(framed(didOpenOf(text)) + framed(change) + framed(answer(2)));
  // pieces, not one body per message
  expect(chunks).toBeGreaterThan(12);
});

test("a burst of documents past the bound waits, made piece by piece, for a server that reads", async () => {
  const { writable, drain, chunks } = stalled();
  // each 6 bytes a character once escaped: three are past the bound
  const text = "\u0001".repeat(LONG_STRING);
  const writer = new BoundedMessageWriter(writable, 10 * LONG_STRING, 60_000);
  const errors: string[] = [];
  writer.onError(([e]) => errors.push(e.message));
  let settled = 0;
  const writes = [1, 2, 3].map(() =>
    writer.write(didOpenOf(text)).then(() => {
      settled += 1;
    }),
  );
  // nothing of the second and third is made until the first is taken
  expect(chunks.length).toBeLessThanOrEqual(1);
  while (settled < 3) {
    await new Promise((resolve) => setImmediate(resolve));
    drain();
  }
  await Promise.all(writes);
  expect(errors).toEqual([]);
});

test("past the bound, a server that takes nothing for the stall time does not read: the writer fails", async () => {
  const { writable, chunks } = stalled();
  const text = "\u0001".repeat(LONG_STRING);
  const writer = new BoundedMessageWriter(writable, 10 * LONG_STRING, 50);
  const errors: string[] = [];
  writer.onError(([e]) => errors.push(e.message));
  for (let i = 0; i < 3; i++) void writer.write(didOpenOf(text)).catch(() => {});
  await waitFor(() => errors.length > 0, 5000, { what: "the writer to fail" });
  expect(errors).toEqual([
    `the server does not read its input: more than ${10 * LONG_STRING} bytes of messages wait for it`,
  ]);
  // the first message's header and first piece were handed over, nothing of the others
  expect(chunks.length).toBeLessThanOrEqual(2);
  await expect(writer.write(didOpen(1))).rejects.toThrow("does not read its input");
});

test("made messages past the bound never wait, whether the server reads or not", async () => {
  const { writable } = stalled();
  const writer = new BoundedMessageWriter(writable, 10_000, 60_000);
  void writer.write(didOpen(6000)).catch(() => {});
  await expect(writer.write(didOpen(6000))).rejects.toThrow("does not read its input");
});
