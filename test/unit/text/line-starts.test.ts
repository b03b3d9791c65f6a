/**
 * Line starts as a typed array, 4 bytes a line (src/text/line-starts.ts, SPEC §5, §8.2):
 * counted by native scans, then filled a block at a time as positions fall in them; the
 * oracle's starts in every model, for random texts and for texts that are nothing but line
 * breaks, asked all at once or line by line in any order.
 */
import { describe, expect, test } from "bun:test";
import { LINE_TERMINATORS } from "../../../src/config/schema.ts";
import { LSP_LINES, lineModel } from "../../../src/text/line-model.ts";
import {
  BYTES_PER_LINE,
  countLines,
  LineStarts,
  lineStartsOf,
} from "../../../src/text/line-starts.ts";
import { expectAt } from "../../support/expect-where.ts";
import { ALL_TERMINATORS, oracleLines } from "../../support/line-oracle.ts";
import { Prng } from "../../support/prng.ts";

const MODELS = {
  LSP: LSP_LINES,
  LF: lineModel(["lf"]),
  LF_CRLF: lineModel(["lf", "crlf"]),
  CR_LF: lineModel(["cr", "lf"]),
  TSSERVER: lineModel(["cr", "lf", "crlf", "u2028", "u2029"]),
  EVERY: lineModel(LINE_TERMINATORS),
};

function expectOracle(text: string, name: keyof typeof MODELS): void {
  const model = MODELS[name];
  const want = oracleLines(text, model.names).starts;
  const starts = lineStartsOf(text, model);
  expect(starts).toBeInstanceOf(Uint32Array);
  expect(countLines(text, model)).toBe(want.length);
  // compared whole: one expect per text, with the text in the message
  expectAt({ text: text.slice(0, 40), name }, starts.join() === want.join(), true);
}

describe("lineStartsOf", () => {
  test("random texts of every terminator, in every model", () => {
    const rand = new Prng(0x5a17);
    const pieces = [...ALL_TERMINATORS, "a", "é", "😀", "\r", "\n", "\r\n"];
    for (let i = 0; i < 400; i++) {
      let text = "";
      for (let n = rand.int(0, 300); n > 0; n--) text += rand.pick(pieces);
      for (const name of Object.keys(MODELS) as (keyof typeof MODELS)[]) expectOracle(text, name);
    }
  });

  test("texts of line breaks only, past the count's blocks", () => {
    for (const unit of ["\n", "\r", "\r\n", "\n\r", "\r\r\n", "\u2028", "\u000b"]) {
      for (const n of [1, 63, 64, 65, 4095, 4096, 4097, 8192, 10_000]) {
        for (const name of Object.keys(MODELS) as (keyof typeof MODELS)[]) {
          expectOracle(unit.repeat(n), name);
          expectOracle(`x${unit.repeat(n)}y`, name);
        }
      }
    }
  });

  test("8 Mi lines: 4 bytes a line, allocated once, in linear time", () => {
    for (const text of ["\n".repeat(8 << 20), "\r".repeat(8 << 20)]) {
      const t0 = performance.now();
      const starts = lineStartsOf(text, LSP_LINES);
      expect(starts.length).toBe((8 << 20) + 1);
      expect(starts.byteLength).toBe(starts.length * BYTES_PER_LINE);
      expect(starts.buffer.byteLength).toBe(starts.byteLength);
      expect([starts[1], starts[8 << 20]]).toEqual([1, 8 << 20]);
      // a bound on hangs, not on speed (bench and docs/PERFORMANCE.md have the figures)
      expect(performance.now() - t0).toBeLessThan(10_000);
      // the server's lines when it breaks at LF alone: one line, not 8 Mi
      expect(countLines(text, MODELS.LF)).toBe(text[0] === "\n" ? (8 << 20) + 1 : 1);
    }
  });
});

describe("LineStarts, a block at a time", () => {
  test("lines and offsets asked in random order, across blocks: the oracle's", () => {
    const rand = new Prng(0xb10c);
    const pieces = ["\n", "\r", "\r\n", "ab", "é", "😀", "\u2028", "\n\n\n"];
    for (const name of Object.keys(MODELS) as (keyof typeof MODELS)[]) {
      let text = "";
      for (let n = 0; n < 20_000; n++) text += rand.pick(pieces);
      const model = MODELS[name];
      const want = oracleLines(text, model.names).starts;
      const starts = new LineStarts(text, model);
      expect(starts.length).toBe(want.length);
      for (let k = 0; k < 300; k++) {
        const line = rand.int(-2, want.length + 1);
        expectAt({ name, line }, starts.at(line), want[line]);
        const offset = rand.int(0, text.length);
        let wantLine = 0;
        while (wantLine + 1 < want.length && (want[wantLine + 1] as number) <= offset) wantLine++;
        expectAt({ name, offset }, starts.lineOf(offset), wantLine);
      }
      expect(starts.all().join()).toBe(want.join());
    }
  });
});
