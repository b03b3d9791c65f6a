/**
 * Counting by native scans, a block of occurrences a call (src/text/count.ts): the same
 * count as one match at a time, across block boundaries and at the ends, and no parse
 * that splits one occurrence into two.
 */
import { expect, test } from "bun:test";
import { countChars, countFrom, occurrenceEnds } from "../../../src/text/count.ts";
import { Prng } from "../../support/prng.ts";

const oneByOne = (text: string, re: RegExp) => [...text.matchAll(re)].length;

test("characters of a class, around every block boundary", () => {
  for (const n of [0, 1, 63, 64, 65, 127, 128, 129, 64 * 64, 64 * 64 + 63]) {
    expect(countChars("\n".repeat(n), "\\n")).toBe(n);
    expect(countChars(`ab${"x\n".repeat(n)}cd`, "\\n")).toBe(n);
    expect(countChars("\n".repeat(n), "\\r")).toBe(0);
  }
});

test("random texts: the count of a one-at-a-time match", () => {
  const rand = new Prng(0xc0de);
  const pieces = ["a", "\r", "\n", "\r\n", "é", "\u0001", '"'];
  for (let i = 0; i < 500; i++) {
    let text = "";
    for (let n = rand.int(0, 400); n > 0; n--) text += rand.pick(pieces);
    expect(countChars(text, "\\r\\n")).toBe(oneByOne(text, /[\r\n]/g));
    const controls = text.split("").filter((c) => c < " " || c === '"').length;
    expect(countChars(text, '\\x00-\\x1f"')).toBe(controls);
    // CR LF once, a lone CR once: the pair is never counted as two
    const lines = [...text.matchAll(/\r\n|\r|\n/g)];
    expect(countFrom(text, "[^\\r\\n]*", "\\r\\n|\\r(?!\\n)|\\n", 0)).toBe(lines.length);
    // every third one's end, as the matches end
    const ends = lines.filter((_, k) => k % 3 === 2).map((m) => m.index + m[0].length);
    expect(occurrenceEnds(text, "[^\\r\\n]*", "\\r\\n|\\r(?!\\n)|\\n", 3)).toEqual(ends);
  }
});
