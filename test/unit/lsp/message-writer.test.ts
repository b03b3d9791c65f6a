/**
 * What the bridge queues for a server, bounded (src/lsp/message-writer.ts, SPEC §8): a
 * server that stops reading makes the writer fail once the texts waiting pass the bound;
 * one that reads never sees it.
 */
import { expect, test } from "bun:test";
import { Emitter, type Message, type RAL } from "vscode-jsonrpc/node";
import { BoundedMessageWriter, estimatedChars } from "../../../src/lsp/message-writer.ts";

/** A writable whose writes settle only when `drain()` is called (a server that stopped reading). */
function stalled() {
  const waiting: (() => void)[] = [];
  const writable: RAL.WritableStream = {
    write: () => new Promise<void>((resolve) => waiting.push(resolve)),
    end: () => {},
    onError: (l) => new Emitter<[Error, Message | undefined, number | undefined]>().event(l),
    onEnd: (l) => new Emitter<void>().event(l),
    onClose: (l) => new Emitter<void>().event(l),
  };
  const drain = (): void => {
    for (const resolve of waiting.splice(0)) resolve();
  };
  return { writable, drain };
}

const didOpen = (chars: number): Message =>
  ({
    jsonrpc: "2.0",
    method: "textDocument/didOpen",
    params: {
      textDocument: { uri: "file:///a", languageId: "x", version: 1, text: "x".repeat(chars) },
    },
  }) as Message;

test("a message weighs its texts", () => {
  expect(estimatedChars(didOpen(1000))).toBe(1256);
  const change = {
    jsonrpc: "2.0",
    method: "textDocument/didChange",
    params: { contentChanges: [{ text: "ab" }, { text: "cde" }] },
  } as Message;
  expect(estimatedChars(change)).toBe(261);
});

test("past the bound of texts waiting, the writer fails and says why", async () => {
  const { writable } = stalled();
  const writer = new BoundedMessageWriter(writable, 10_000);
  const errors: string[] = [];
  writer.onError(([e]) => errors.push(e.message));
  const first = writer.write(didOpen(4000));
  const second = writer.write(didOpen(4000));
  await expect(writer.write(didOpen(4000))).rejects.toThrow("the server does not read its input");
  expect(errors).toEqual([
    "the server does not read its input: more than 10000 characters of messages wait for it",
  ]);
  // and every later write fails the same way
  await expect(writer.write(didOpen(1))).rejects.toThrow("does not read its input");
  void first;
  void second;
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
