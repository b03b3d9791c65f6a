/**
 * When the bridge collects garbage (src/collector.ts): after an answer, once resident
 * memory grew past the limit since the last collection (or the first answer) — never on
 * ordinary calls, never for what start-up took, never twice at once, and measured again
 * from what the collection left.
 */
import { expect, test } from "bun:test";
import { Collector } from "../../src/collector.ts";

function harness(limit: number) {
  let resident = 100;
  let collected = 0;
  const queued: (() => void)[] = [];
  const c = new Collector(
    limit,
    () => resident,
    () => {
      collected += 1;
      resident -= 30; // what a collection gives back
    },
    (fn) => queued.push(fn),
  );
  return {
    c,
    grow: (n: number) => {
      resident += n;
    },
    run: () => {
      for (const fn of queued.splice(0)) fn();
    },
    collected: () => collected,
    queued: () => queued.length,
  };
}

test("what start-up took before the first answer is not growth", () => {
  const h = harness(16);
  h.grow(40); // modules loaded, the handshake answered
  h.c.afterAnswer();
  expect(h.queued()).toBe(0);
});

test("no collection while resident memory stays within the limit", () => {
  const h = harness(16);
  h.c.afterAnswer();
  h.grow(16);
  h.c.afterAnswer();
  expect(h.queued()).toBe(0);
});

test("past the limit: one collection, after the answer, and the next is measured from what it left", () => {
  const h = harness(16);
  h.c.afterAnswer();
  h.grow(40);
  h.c.afterAnswer();
  h.c.afterAnswer(); // a second answer before it ran: still one
  expect([h.queued(), h.collected()]).toEqual([1, 0]);
  h.run();
  expect([h.collected(), h.c.collections]).toEqual([1, 1]);
  // 110 left: growing to 126 is within the limit again, 127 is not
  h.grow(16);
  h.c.afterAnswer();
  expect(h.queued()).toBe(0);
  h.grow(1);
  h.c.afterAnswer();
  expect(h.queued()).toBe(1);
});
