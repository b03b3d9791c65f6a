/**
 * What waits to be written to the client, bounded (src/mcp/transport/stdio.ts, SPEC §8.2):
 * past the bound the transport stops reading the client until its answers are taken; a
 * client that takes nothing for the stall time is gone (the transport closes); a request
 * counts toward the pending limit until its answer is written, not merely queued; past
 * MAX_HELD_INPUT_BYTES of requests in hand the client is not read until answers free them.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { log } from "../../../../src/log.ts";
import { MAX_HELD_INPUT_BYTES, MAX_PENDING_REQUESTS } from "../../../../src/mcp/transport/stdio.ts";
import { line, setup } from "../../../support/scripted-stdio.ts";
import { waitFor } from "../../../support/wait.ts";

/** 200 lines `x`: a -32700 answer each (~600 bytes counted), far past a 16 KiB bound. */
const LINES = 200;
const junk = "x\n".repeat(LINES);
const BOUND = 16 * 1024;

// each line refused is logged: not here
beforeAll(() => log.setLevel("error"));
afterAll(() => log.setLevel("info"));

test("past the bound the client is not read until it takes its answers; then all come, in order", async () => {
  const t = await setup(1024, { maxOutputBytes: BOUND, outputStallMs: 60_000 });
  t.output.held = true;
  t.input.push(junk);
  t.input.push(line({ jsonrpc: "2.0", id: "after", method: "ping" }));
  // the first answer went to the sink (its flush waits): the read loop has decided
  await waitFor(() => t.output.text.length > 0, 5_000, { what: "the first answer" });
  expect(t.input.reading()).toBe(false);
  expect(t.delivered).toEqual([]);
  while (!t.input.reading()) {
    await waitFor(() => t.output.drain() > 0 || t.input.reading(), 5_000, { what: "a write" });
  }
  expect(t.delivered).toEqual([{ jsonrpc: "2.0", id: "after", method: "ping" }]);
  t.output.held = false;
  t.output.drain();
  await t.settle();
  const answers = t.output.messages();
  expect(answers).toHaveLength(LINES);
  expect(answers.every((m) => m.id === null && (m.error as { code: number }).code === -32700)).toBe(
    true,
  );
  expect(t.closed()).toBe(0);
});

test("past the bound, a client that takes nothing for the stall time is gone: closed once", async () => {
  const t = await setup(1024, { maxOutputBytes: BOUND, outputStallMs: 50 });
  t.output.held = true;
  t.input.push(junk);
  await waitFor(() => t.closed() === 1, 5_000, { what: "the transport to close" });
  expect(t.input.cancelled).toBe(true);
  // what is sent after is dropped quietly
  await t.transport.send({ jsonrpc: "2.0", id: 1, result: {} });
  expect(t.closed()).toBe(1);
});

test("a request counts toward the pending limit until its answer is written", async () => {
  const t = await setup(1024, { outputStallMs: 60_000 });
  for (let id = 1; id <= MAX_PENDING_REQUESTS; id++) {
    t.input.push(line({ jsonrpc: "2.0", id, method: "tools/list" }));
  }
  await t.settle();
  t.output.held = true;
  for (let id = 1; id <= MAX_PENDING_REQUESTS; id++) {
    void t.transport.send({ jsonrpc: "2.0", id, result: {} });
  }
  // every answer is queued, none written past the first: the next request is refused
  t.input.push(line({ jsonrpc: "2.0", id: "one more", method: "tools/list" }));
  await waitFor(() => t.input.reading(), 5_000, { what: "the reader to read on" });
  expect(t.transport.hasUnanswered()).toBe(true);
  expect(t.delivered).toHaveLength(MAX_PENDING_REQUESTS);
  t.output.held = false;
  t.output.drain();
  await t.transport.written();
  expect(t.transport.hasUnanswered()).toBe(false);
  expect(t.output.messages().at(-1)).toMatchObject({ id: "one more", error: { code: -32000 } });
});

test("a long answer goes out in pieces, a surrogate pair never split between two", async () => {
  const t = await setup();
  // pairs at even and at odd offsets: a cut every 64 Ki units falls inside one of them
  const texts = ["😀".repeat(70_000), `a${"😀".repeat(70_000)}`];
  for (const [id, text] of texts.entries()) {
    await t.transport.send({ jsonrpc: "2.0", id, result: { text } });
  }
  expect(t.output.messages()).toEqual(
    texts.map((text, id) => ({ jsonrpc: "2.0", id, result: { text } })),
  );
});

test("past the bytes of requests in hand, the client is not read until an answer frees them", async () => {
  const size = Math.ceil(MAX_HELD_INPUT_BYTES / 2.5);
  const big = (id: number) =>
    line({ jsonrpc: "2.0", id, method: "tools/call", params: { pad: "p".repeat(size) } });
  const t = await setup(16 * 1024 * 1024, { outputStallMs: 60_000 });
  t.input.push(big(1) + big(2) + big(3));
  t.input.push(line({ jsonrpc: "2.0", id: 4, method: "ping" }));
  await waitFor(() => t.delivered.length === 3, 5_000, { what: "three requests" });
  expect(t.input.reading()).toBe(false);
  await t.transport.send({ jsonrpc: "2.0", id: 1, result: {} });
  await waitFor(() => t.delivered.length === 4, 5_000, {
    what: "the fourth, once one is answered",
  });
  expect(t.delivered.at(-1)).toEqual({ jsonrpc: "2.0", id: 4, method: "ping" });
});
