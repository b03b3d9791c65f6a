/**
 * The nesting depth of an incoming message, from its bytes (src/mcp/transport/nesting.ts,
 * SPEC §4.8): brackets inside strings, escaped quotes included, do not count; the scan
 * stops at the level too many and stays linear in the message.
 */
import { expect, test } from "bun:test";
import { nestsDeeperThan } from "../../../../src/mcp/transport/nesting.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

test("objects and arrays count; brackets in strings do not", () => {
  expect(nestsDeeperThan(bytes('{"a":[{"b":1}]}'), 3)).toBe(false);
  expect(nestsDeeperThan(bytes('{"a":[{"b":[1]}]}'), 3)).toBe(true);
  expect(nestsDeeperThan(bytes(`{"a":"${"[".repeat(100)}"}`), 3)).toBe(false);
  expect(nestsDeeperThan(bytes(String.raw`{"a":"\"[[[[","b":"\\"}`), 1)).toBe(false);
  expect(nestsDeeperThan(bytes(String.raw`{"a":"\\",  "b":[[[1]]]}`), 3)).toBe(true);
});

test("linear: 8 MiB of strings full of escapes, and of brackets, in well under a second each", () => {
  const escapes = bytes(`{"a":"${'\\"['.repeat(2 << 20)}"}`);
  const brackets = bytes("[".repeat(8 << 20));
  const t0 = performance.now();
  expect(nestsDeeperThan(escapes, 64)).toBe(false);
  expect(nestsDeeperThan(brackets, 64)).toBe(true);
  expect(performance.now() - t0).toBeLessThan(2000);
});
