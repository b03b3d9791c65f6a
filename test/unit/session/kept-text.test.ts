/**
 * A server's text kept past its message (src/session/kept-text.ts, SPEC §8.2): cut to its
 * bound with an ellipsis, never through a surrogate pair, and a copy — a slice would keep
 * the whole parent string alive.
 */
import { expect, test } from "bun:test";
import { keptText } from "../../../src/session/kept-text.ts";

test("short texts are kept as they are; long ones cut, with an ellipsis", () => {
  expect(keptText("abc", 3)).toBe("abc");
  expect(keptText("abcd", 3)).toBe("abc…");
  expect(keptText("ab😀", 3)).toBe("ab…");
  expect(keptText("a\udc00b", 2)).toBe("a\udc00…"); // a lone surrogate is kept as it is
});

test("a cut holds nothing of its parent: the parents are freed", () => {
  const rss = () => process.memoryUsage().rss;
  Bun.gc(true);
  const before = rss();
  const kept: string[] = [];
  for (let i = 0; i < 8; i++) {
    // a fresh parent each time, built from bytes (never a constant the runtime shares)
    const parent = Buffer.alloc(16 << 20, 97 + i).toString("latin1");
    kept.push(keptText(parent, 1024));
  }
  Bun.gc(true);
  expect(kept.every((k) => k.length === 1025)).toBe(true);
  // eight 16 MiB parents kept alive behind their slices would be 128 MiB
  expect(rss() - before).toBeLessThan(48 << 20);
});
