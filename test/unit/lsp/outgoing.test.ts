/**
 * A message planned for writing (src/lsp/outgoing.ts, SPEC §8.2): made at once when it
 * holds no long string; otherwise its JSON around the long strings, which are left to be
 * escaped when written — and the size it announces is exactly the bytes it then writes.
 */
import { expect, test } from "bun:test";
import { LONG_STRING, outgoing, stringPieces } from "../../../src/lsp/outgoing.ts";

/** The bytes a plan writes, pieces made as the writer makes them. */
function written(msg: unknown): Buffer {
  const { parts } = outgoing(msg);
  return Buffer.concat(
    parts.flatMap((p) => (Buffer.isBuffer(p) ? [p] : [...stringPieces(p.long)])),
  );
}

const long = `"\u0001é😀\n${"x".repeat(LONG_STRING)}`;

test("a message without a long string is one piece, its JSON", () => {
  const msg = { jsonrpc: "2.0", id: 1, method: "textDocument/hover", params: { a: [1, "b"] } };
  const plan = outgoing(msg);
  expect(plan.parts).toHaveLength(1);
  expect(plan.bytes).toBe(Buffer.byteLength(JSON.stringify(msg)));
});

test("long strings are left apart, wherever they are; the JSON is JSON.stringify's", () => {
  const shapes: unknown[] = [
    { params: { textDocument: { uri: "file:///a", text: long } } },
    { params: { contentChanges: [{ text: long }, { text: "b" }, { range: null, text: long }] } },
    { a: undefined, b: () => 1, c: [undefined, long, Symbol("s")], d: { toJSON: () => "x" } },
    { 2: long, 1: "one", z: long },
  ];
  for (const msg of shapes) {
    const plan = outgoing(msg);
    expect(plan.parts.some((p) => !Buffer.isBuffer(p))).toBe(true);
    expect(written(msg).toString()).toBe(JSON.stringify(msg));
    expect(plan.bytes).toBe(Buffer.byteLength(JSON.stringify(msg)));
  }
});

test("past the values looked into, a long string is made at once with the rest", () => {
  const msg = { items: [...Array.from({ length: 100 }, (_, i) => i), long] };
  const plan = outgoing(msg);
  expect(plan.parts).toHaveLength(1);
  expect(plan.bytes).toBe(Buffer.byteLength(JSON.stringify(msg)));
});
