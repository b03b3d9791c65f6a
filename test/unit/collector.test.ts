/**
 * When the bridge collects garbage (src/collector.ts): after an answer that followed more
 * input than the limit since the answer before it — never after ordinary calls however
 * many, never twice at once, never before the answer.
 */
import { expect, test } from "bun:test";
import { Collector } from "../../src/collector.ts";

function harness(limit: number) {
  let collected = 0;
  const queued: (() => void)[] = [];
  const c = new Collector(
    limit,
    () => {
      collected += 1;
    },
    (fn) => queued.push(fn),
  );
  return {
    c,
    run: () => {
      for (const fn of queued.splice(0)) fn();
    },
    collected: () => collected,
    queued: () => queued.length,
  };
}

test("ordinary calls never collect, however many: the input counts per answer", () => {
  const h = harness(100);
  for (let i = 0; i < 1000; i++) {
    h.c.took(60);
    h.c.took(40); // at the limit, not over it
    h.c.afterAnswer();
  }
  expect(h.queued()).toBe(0);
});

test("input over the limit: one collection, queued after the answer, not run before it", () => {
  const h = harness(100);
  h.c.took(70);
  h.c.took(31); // two chunks of one answer add up
  expect(h.queued()).toBe(0);
  h.c.afterAnswer();
  expect([h.queued(), h.collected()]).toEqual([1, 0]);
  h.run();
  expect([h.collected(), h.c.collections]).toEqual([1, 1]);
});

test("a large answer while a collection is queued adds none; the next one after it does", () => {
  const h = harness(100);
  h.c.took(500);
  h.c.afterAnswer();
  h.c.took(500);
  h.c.afterAnswer(); // queued already
  expect(h.queued()).toBe(1);
  h.run();
  h.c.afterAnswer(); // nothing taken in since: nothing to collect
  expect(h.queued()).toBe(0);
  h.c.took(101);
  h.c.afterAnswer();
  expect(h.queued()).toBe(1);
});
