/**
 * When the bridge collects garbage (src/collector.ts): after an answer that followed more
 * input than the limit since the answer before it, and once the bridge has been idle after
 * answering — never during a burst of ordinary calls however long, never twice at once,
 * never before the answer, never while a request is pending.
 */
import { expect, test } from "bun:test";
import { Collector } from "../../src/collector.ts";

const IDLE = 1000;

function harness(limit: number, droppedLimit = 1000, floodLimit = 1e12) {
  let clock = 0;
  let collected = 0;
  let busy = false;
  const queued: (() => void)[] = [];
  let timers: { at: number; fn: () => void }[] = [];
  const c = new Collector({
    largeBytes: limit,
    droppedBytes: droppedLimit,
    floodBytes: floodLimit,
    idleMs: IDLE,
    collect: () => {
      collected += 1;
    },
    later: (fn) => queued.push(fn),
    timer: (fn, ms) => timers.push({ at: clock + ms, fn }),
    now: () => clock,
  });
  c.watchRequests(() => busy);
  const runQueued = () => {
    for (const fn of queued.splice(0)) fn();
  };
  return {
    c,
    runQueued,
    /** move the clock, firing due timers in order, then what they queued */
    advance: (ms: number) => {
      const end = clock + ms;
      for (;;) {
        const due = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
        if (due === undefined) break;
        timers = timers.filter((t) => t !== due);
        clock = due.at;
        due.fn();
        runQueued();
      }
      clock = end;
    },
    setBusy: (b: boolean) => {
      busy = b;
    },
    collected: () => collected,
    queued: () => queued.length,
    timers: () => timers.length,
  };
}

test("a burst of ordinary calls never collects, however long: the input counts per answer", () => {
  const h = harness(100);
  for (let i = 0; i < 1000; i++) {
    h.c.took(60);
    h.c.took(40); // at the limit, not over it
    h.c.afterAnswer();
    h.advance(IDLE - 1); // the next call comes before the bridge was idle that long
  }
  expect(h.collected()).toBe(0);
  expect(h.timers()).toBe(1); // one idle check pending, not one per answer
});

test("input over the limit: one collection, queued after the answer, not run before it", () => {
  const h = harness(100);
  h.c.took(70);
  h.c.took(31); // two chunks of one answer add up
  expect(h.queued()).toBe(0);
  h.c.afterAnswer();
  expect([h.queued(), h.collected()]).toEqual([1, 0]);
  h.runQueued();
  expect([h.collected(), h.c.collections]).toEqual([1, 1]);
});

test("a large answer while a collection is queued adds none", () => {
  const h = harness(100);
  h.c.took(500);
  h.c.afterAnswer();
  h.c.took(500);
  h.c.afterAnswer();
  expect(h.queued()).toBe(1);
  h.runQueued();
  h.c.took(101);
  h.c.afterAnswer();
  expect(h.queued()).toBe(1);
});

test("idle after answering: one collection, once; nothing more while nothing is answered", () => {
  const h = harness(100);
  h.c.afterAnswer();
  h.advance(IDLE - 1);
  expect(h.collected()).toBe(0);
  h.advance(1);
  expect(h.collected()).toBe(1);
  h.advance(60 * IDLE); // still idle: nothing new to give back
  expect([h.collected(), h.timers()]).toEqual([1, 0]);
  h.c.afterAnswer(); // a call later: the next pause collects again
  h.advance(IDLE);
  expect(h.collected()).toBe(2);
});

test("the idle time counts from the last answer", () => {
  const h = harness(100);
  h.c.afterAnswer();
  h.advance(600);
  h.c.afterAnswer();
  h.advance(600); // 1200 since the first answer, 600 since the last
  expect(h.collected()).toBe(0);
  h.advance(400);
  expect(h.collected()).toBe(1);
});

test("a request pending is not idleness: the collection waits for it", () => {
  const h = harness(100);
  h.c.afterAnswer();
  h.setBusy(true); // e.g. a diagnostics call waiting on the server
  h.advance(5 * IDLE);
  expect(h.collected()).toBe(0);
  expect(h.timers()).toBe(1); // looked again once per idle period, not in a loop
  h.setBusy(false);
  h.advance(IDLE);
  expect(h.collected()).toBe(1);
});

test("a large answer collected already is not collected again when idle", () => {
  const h = harness(100);
  h.c.took(500);
  h.c.afterAnswer();
  h.runQueued();
  expect(h.collected()).toBe(1);
  h.advance(2 * IDLE);
  expect(h.collected()).toBe(1);
});

test("an over-limit message being skipped: one collection per limit let go, at once, none for the rest", () => {
  const h = harness(100, 1000);
  for (let i = 0; i < 9; i++) h.c.dropped(100);
  expect(h.collected()).toBe(0);
  h.c.dropped(100); // 1000 let go: collected now, between two reads, not queued
  expect([h.collected(), h.queued(), h.c.collections]).toEqual([1, 0, 1]);
  h.c.dropped(2500); // a big chunk counts once
  h.c.dropped(499);
  expect(h.collected()).toBe(2);
  h.c.dropped(1);
  expect(h.collected()).toBe(2); // the count starts again after each collection
  // bytes let go are not input an answer followed: the answer queues nothing for them
  h.c.afterAnswer();
  expect(h.queued()).toBe(0);
});

test("a flood from servers collects every floodBytes taken in, answered or not, once at a time", () => {
  const h = harness(1e12, 1000, 100);
  for (let i = 0; i < 10; i++) h.c.took(30); // 300 bytes, no answer
  expect(h.queued()).toBe(1); // asked once: the collection has not run yet
  h.runQueued();
  expect(h.collected()).toBe(1);
  for (let i = 0; i < 3; i++) h.c.took(30);
  h.runQueued();
  expect(h.collected()).toBe(1); // 90 bytes since: not yet
  h.c.took(30);
  h.runQueued();
  expect(h.collected()).toBe(2);
});
