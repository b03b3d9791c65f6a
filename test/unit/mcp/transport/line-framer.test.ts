/**
 * NDJSON framing with the per-message limit (SPEC §4.8): lines whole however
 * the stream is chunked, a line over the limit reported with its size and its
 * top-level id / method / response facts (found by the constant-memory scan),
 * and the stream in step afterwards.
 */
import { describe, expect, test } from "bun:test";
import { LineFramer, type Oversize } from "../../../../src/mcp/transport/line-framer.ts";

type Event = { line: string } | { oversize: Oversize };

const enc = new TextEncoder();

/** Feed `text` in chunks of `size` bytes (0: all at once). */
function frame(text: string, limit: number, size = 0): Event[] {
  const events: Event[] = [];
  const framer = new LineFramer(limit, {
    line: (b) => events.push({ line: new TextDecoder().decode(b) }),
    oversize: (m) => events.push({ oversize: m }),
  });
  const bytes = enc.encode(text);
  const step = size === 0 ? bytes.length : size;
  for (let i = 0; i < bytes.length; i += step) framer.push(bytes.slice(i, i + step));
  return events;
}

describe("LineFramer", () => {
  test("lines come out whole for every chunk size; blank lines are skipped", () => {
    const text = '{"a":1}\n{"b":"é\\n"}\r\n\n{"c":[1,2,3]}\n';
    for (const size of [0, 1, 2, 3, 5, 7, 64]) {
      expect(frame(text, 100, size)).toEqual([
        { line: '{"a":1}' },
        { line: '{"b":"é\\n"}\r' },
        { line: '{"c":[1,2,3]}' },
      ]);
    }
  });

  test("a line of exactly the limit passes; one byte more is oversize, and the next line is intact", () => {
    const at = `{"x":"${"a".repeat(14)}"}`; // 22 bytes
    expect(at.length).toBe(22);
    expect(frame(`${at}\n`, 22)).toEqual([{ line: at }]);
    for (const size of [0, 1, 4, 9]) {
      const events = frame(`{"id":5,"method":"m","x":"${"a".repeat(40)}"}\n{"ok":1}\n`, 22, size);
      expect(events).toEqual([
        { oversize: { bytes: 68, id: 5, hasMethod: true, isResponse: false } },
        { line: '{"ok":1}' },
      ]);
    }
  });

  test("every byte of an over-limit line is reported let go, as it goes; a line within the limit lets none go", () => {
    const big = `{"id":5,"x":"${"a".repeat(90)}"}`; // 106 bytes
    for (const size of [0, 1, 7, 30]) {
      const drops: number[] = [];
      let reportedAt = -1;
      const framer = new LineFramer(40, {
        line: () => {},
        oversize: () => {
          reportedAt = drops.length;
        },
        dropped: (n) => drops.push(n),
      });
      const bytes = enc.encode(`{"ok":1}\n${big}\n{"ok":2}\n`);
      const step = size === 0 ? bytes.length : size;
      for (let i = 0; i < bytes.length; i += step) framer.push(bytes.slice(i, i + step));
      expect([size, drops.reduce((a, b) => a + b, 0)]).toEqual([size, big.length]);
      expect(reportedAt).toBe(drops.length); // all of it let go before the line's report
      // in steps as the chunks come, not once at the end (all at once: one piece)
      if (size > 0 && size < 40) expect(drops.length).toBeGreaterThan(1);
    }
  });

  test("an unterminated line is pending, not delivered", () => {
    const framer = new LineFramer(100, {
      line: () => {
        throw new Error("no line expected");
      },
      oversize: () => {
        throw new Error("no oversize expected");
      },
    });
    framer.push(enc.encode('{"a":'));
    expect(framer.pendingBytes()).toBe(5);
  });
});
