/**
 * The size of a string's JSON in UTF-8, found without making it (src/text/json-string.ts,
 * SPEC §8.2): exactly what JSON.stringify makes, for every class of character — the short
 * escapes, the six-byte ones, `"` and `\`, ASCII, two-, three- and four-byte characters,
 * U+2028, DEL, lone surrogates of both halves — in random mixes and long runs.
 */
import { expect, test } from "bun:test";
import { jsonStringBytes } from "../../../src/text/json-string.ts";
import { Prng } from "../../support/prng.ts";

const want = (s: string) => Buffer.byteLength(JSON.stringify(s), "utf8");

/** One character of each class JSON.stringify treats apart. */
const CLASSES = [
  ...Array.from({ length: 32 }, (_, c) => String.fromCharCode(c)),
  '"',
  "\\",
  "a",
  " ",
  "\u007f",
  "é",
  "\u0800",
  "€",
  "\u2028",
  "\u2029",
  "\uffff",
  "😀",
  "\ud800",
  "\udbff",
  "\udc00",
  "\udfff",
];

test("each class alone, and the empty string", () => {
  expect(jsonStringBytes("")).toBe(2);
  for (const c of CLASSES) expect({ c, bytes: jsonStringBytes(c) }).toEqual({ c, bytes: want(c) });
});

test("random strings of every class: the bytes JSON.stringify makes", () => {
  const rand = new Prng(0x1507);
  for (let i = 0; i < 2000; i++) {
    let s = "";
    for (let n = rand.int(0, 200); n > 0; n--) s += rand.pick(CLASSES);
    expect({ s, bytes: jsonStringBytes(s) }).toEqual({ s, bytes: want(s) });
  }
});

test("long runs: past the scans' blocks, in every class", () => {
  for (const c of ["\u0001", "\n", '"', "a", "€", "😀", "\ud800"]) {
    for (const n of [63, 64, 65, 64 * 64 + 1, 100_000]) {
      const s = `${c.repeat(n)}x${c}`;
      expect({ c, n, bytes: jsonStringBytes(s) }).toEqual({ c, n, bytes: want(s) });
    }
  }
});

test("8 MiB of control characters in linear time", () => {
  const s = `${"\u0001".repeat(8 << 20)}€`;
  const t0 = performance.now();
  expect(jsonStringBytes(s)).toBe(6 * (8 << 20) + 3 + 2);
  // a bound on hangs, not on speed: a loop per character in the bridge's slow tiers took seconds
  expect(performance.now() - t0).toBeLessThan(5000);
});
