/**
 * The diagnostics store, bounded (src/session/diagnostics.ts, SPEC §8): reports for URIs
 * outside the workspace root are dropped, URIs and diagnostics kept are bounded, every
 * drop is counted, and a flood costs linear time.
 */
import { expect, test } from "bun:test";
import { DIAGNOSTIC_LIMITS, DiagnosticStore } from "../../../src/session/diagnostics.ts";

const ROOT = "/nonexistent-theodolite-root/ws";
const diag = {
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
  message: "m",
};

test("200,000 URIs outside the root: none kept, all counted, quickly", () => {
  const store = new DiagnosticStore({ root: ROOT, rootReal: ROOT });
  const t0 = performance.now();
  for (let i = 0; i < 200_000; i++) {
    store.onPublish({ uri: `file:///elsewhere/f${i}.ts`, diagnostics: [diag] });
  }
  store.onPublish({ uri: "untitled:Untitled-1", diagnostics: [diag] });
  store.onPublish({ uri: `file://${ROOT}/../escape.ts`, diagnostics: [diag] });
  expect(performance.now() - t0).toBeLessThan(3000);
  expect(store.uris()).toEqual([]);
  expect(store.dropped()).toEqual({ outside_root: 200_002, uris: 0, items: 0 });
  expect(store.incomplete()).toBe(false);
});

test("URIs inside the root: at most `uris` kept, new ones beyond dropped, known ones updated", () => {
  const store = new DiagnosticStore({ root: ROOT, rootReal: ROOT });
  for (let i = 0; i < DIAGNOSTIC_LIMITS.uris + 5; i++) {
    store.onPublish({ uri: `file://${ROOT}/f${i}.ts`, diagnostics: [] });
  }
  expect(store.uris()).toHaveLength(DIAGNOSTIC_LIMITS.uris);
  expect(store.dropped().uris).toBe(5);
  expect(store.incomplete()).toBe(true);
  store.onPublish({ uri: `file://${ROOT}/f0.ts`, diagnostics: [diag] });
  expect(store.push(`file://${ROOT}/f0.ts`)?.items).toHaveLength(1);
  store.forget(`file://${ROOT}/f1.ts`);
  store.setPull(`file://${ROOT}/new.ts`, { resultId: undefined, items: [diag] });
  expect(store.pull(`file://${ROOT}/new.ts`)?.items).toHaveLength(1);
});

test("diagnostics are bounded in total: a report past it is cut and counted; replacing frees", () => {
  const store = new DiagnosticStore({ root: ROOT, rootReal: ROOT });
  const many = Array.from({ length: DIAGNOSTIC_LIMITS.items - 10 }, () => diag);
  store.onPublish({ uri: `file://${ROOT}/a.ts`, diagnostics: many });
  store.onPublish({ uri: `file://${ROOT}/b.ts`, diagnostics: Array(25).fill(diag) });
  expect(store.push(`file://${ROOT}/b.ts`)?.items).toHaveLength(10);
  expect(store.dropped().items).toBe(15);
  expect(store.count()).toBe(DIAGNOSTIC_LIMITS.items);
  store.onPublish({ uri: `file://${ROOT}/a.ts`, diagnostics: [] });
  store.onPublish({ uri: `file://${ROOT}/b.ts`, diagnostics: Array(25).fill(diag) });
  expect(store.count()).toBe(25);
  store.clear();
  expect(store.dropped()).toEqual({ outside_root: 0, uris: 0, items: 0 });
});
