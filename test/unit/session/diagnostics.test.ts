/**
 * The diagnostics store, bounded (src/session/diagnostics.ts, SPEC §8.2): reports for URIs
 * outside the workspace root are dropped, URIs, diagnostics and their weight kept are
 * bounded, every drop is counted, and a flood costs linear time.
 */
import { expect, test } from "bun:test";
import { DIAGNOSTIC_CAPS } from "../../../src/session/diagnostic-caps.ts";
import { DIAGNOSTIC_LIMITS, DiagnosticStore } from "../../../src/session/diagnostics.ts";

const NONE = { outside_root: 0, uris: 0, items: 0, bytes: 0, data: 0, texts_cut: 0, malformed: 0 };

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
  expect(store.dropped()).toEqual({ ...NONE, outside_root: 200_002 });
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
  expect(store.dropped()).toEqual(NONE);
});

test("what is kept is a bounded copy: long texts cut, large data left out, each counted", () => {
  const store = new DiagnosticStore({ root: ROOT, rootReal: ROOT });
  const uri = `file://${ROOT}/a.ts`;
  const message = "m".repeat(30 << 20);
  const data = { keep: Array(20_000).fill(0) };
  store.onPublish({
    uri,
    diagnostics: [
      { ...diag, message, data, extra: "x".repeat(1 << 20) } as never,
      { ...diag, data: { fix: "small" } },
      { message: "no range" } as never,
    ],
  });
  const [long, small] = store.push(uri)?.items ?? [];
  expect(long?.message).toHaveLength(DIAGNOSTIC_CAPS.message + 1);
  expect(long?.data).toBeUndefined();
  expect(long).not.toHaveProperty("extra");
  expect(small?.data).toEqual({ fix: "small" });
  expect(store.count()).toBe(2);
  expect(store.dropped()).toEqual({ ...NONE, data: 1, texts_cut: 1, malformed: 1 });
  // nothing was cut from a report: a workspace answer stays complete
  expect(store.incomplete()).toBe(false);
  expect(store.bytes()).toBeLessThan(100_000);
});

test("the weight is bounded in total: a report past it is cut and counted; replacing frees", () => {
  const store = new DiagnosticStore({ root: ROOT, rootReal: ROOT });
  const heavy = { ...diag, message: "h".repeat(DIAGNOSTIC_CAPS.message) };
  const perFile = 1000;
  const files = Math.ceil(DIAGNOSTIC_LIMITS.bytes / (perFile * 2 * DIAGNOSTIC_CAPS.message)) + 1;
  for (let f = 0; f < files; f++) {
    store.onPublish({ uri: `file://${ROOT}/f${f}.ts`, diagnostics: Array(perFile).fill(heavy) });
  }
  expect(store.bytes()).toBeLessThanOrEqual(DIAGNOSTIC_LIMITS.bytes);
  expect(store.dropped().bytes).toBeGreaterThan(0);
  expect(store.dropped().bytes).toBeLessThan(2 * perFile);
  expect(store.incomplete()).toBe(true);
  const held = store.bytes();
  store.onPublish({ uri: `file://${ROOT}/f0.ts`, diagnostics: [] });
  expect(store.bytes()).toBeLessThan(held - perFile * DIAGNOSTIC_CAPS.message);
  store.forget(`file://${ROOT}/f1.ts`);
  store.setPull(`file://${ROOT}/f2.ts`, { resultId: "r", items: [] });
  store.onPublish({ uri: `file://${ROOT}/f2.ts`, diagnostics: [] });
  expect(store.bytes()).toBeLessThan(held - 3 * perFile * DIAGNOSTIC_CAPS.message);
});

test("a pull answers with what was kept", () => {
  const store = new DiagnosticStore({ root: ROOT, rootReal: ROOT });
  const kept = store.setPull(`file://${ROOT}/a.ts`, {
    resultId: "1",
    items: [{ ...diag, message: "p".repeat(DIAGNOSTIC_CAPS.message + 5) }],
  });
  expect(kept[0]?.message).toBe(`${"p".repeat(DIAGNOSTIC_CAPS.message)}…`);
  expect(store.pull(`file://${ROOT}/a.ts`)?.items).toBe(kept);
  expect(store.setPull("file:///elsewhere/b.ts", { resultId: "1", items: [diag] })).toEqual([]);
});

test("a new server life keeps which URIs were reported on, bounded, and forgets vanished ones", () => {
  const store = new DiagnosticStore({ root: ROOT, rootReal: ROOT });
  const uri = (i: number) => `file://${ROOT}/f${i}.ts`;
  store.onPublish({ uri: uri(1), diagnostics: [diag] });
  store.setPull(uri(2), { resultId: undefined, items: [] });
  store.clear();
  expect(store.uris()).toEqual([]);
  expect(store.push(uri(1))).toBeUndefined();
  expect(store.earlierUris()).toEqual([uri(1), uri(2)]);
  expect([1, 2, 3].map((i) => store.reportedEver(uri(i)))).toEqual([true, true, false]);
  // reported again in this life: no longer only an earlier one
  store.onPublish({ uri: uri(1), diagnostics: [] });
  expect(store.earlierUris()).toEqual([uri(2)]);
  store.forget(uri(2));
  expect(store.reportedEver(uri(2))).toBe(false);
  // at most `uris` carried over, however many lives
  for (let life = 0; life < 2; life++) {
    for (let i = 0; i < DIAGNOSTIC_LIMITS.uris; i++) {
      store.onPublish({ uri: uri(life * DIAGNOSTIC_LIMITS.uris + i), diagnostics: [] });
    }
    store.clear();
  }
  expect(store.earlierUris()).toHaveLength(DIAGNOSTIC_LIMITS.uris);
});
