/**
 * `$/progress` tasks, bounded (src/session/progress.ts, SPEC §8): begins past the bound or
 * with an overlong token are dropped and counted, texts are cut, and what session_status
 * shows stays small whatever the server sent.
 */
import { expect, test } from "bun:test";
import { PROGRESS_LIMITS, ProgressTracker } from "../../../src/session/progress.ts";

const begin = (title: string, message?: string) => ({
  kind: "begin",
  title,
  ...(message === undefined ? {} : { message }),
});

test("100,000 begins that never end, with 1 KiB titles: a bounded set, counted", () => {
  const p = new ProgressTracker();
  const title = "t".repeat(1024);
  const t0 = performance.now();
  for (let i = 0; i < 100_000; i++) p.update(`token-${i}`, begin(title, title));
  expect(performance.now() - t0).toBeLessThan(3000);
  expect(p.active()).toHaveLength(PROGRESS_LIMITS.tasks);
  const status = p.status();
  expect(status.progress).toHaveLength(PROGRESS_LIMITS.shown);
  expect(status.progress_active).toBe(PROGRESS_LIMITS.tasks);
  expect(status.progress_dropped).toBe(100_000 - PROGRESS_LIMITS.tasks);
  expect(status.progress[0]?.title).toBe(`${"t".repeat(PROGRESS_LIMITS.chars)}…`);
  expect(JSON.stringify(status).length).toBeLessThan(20_000);
});

test("an ended task makes room; reports are cut too; an overlong token is dropped", () => {
  const p = new ProgressTracker();
  for (let i = 0; i < PROGRESS_LIMITS.tasks; i++) p.update(i, begin("x"));
  expect(p.update("late", begin("late"))).toBeUndefined();
  p.update(0, { kind: "end" });
  expect(p.update("late", begin("late"))?.title).toBe("late");
  p.update("late", { kind: "report", message: "m".repeat(5000) });
  expect(p.active().find((t) => t.token === "late")?.message).toHaveLength(
    PROGRESS_LIMITS.chars + 1,
  );
  p.update(1, { kind: "end" });
  expect(p.update("k".repeat(PROGRESS_LIMITS.chars + 1), begin("x"))).toBeUndefined();
  expect(p.status().progress_dropped).toBe(2);
});

test("overlapping runs under one token: each begin takes an end of its own, oldest first", () => {
  const flycheck = [/flycheck/];
  const p = new ProgressTracker(flycheck);
  const token = "rust-analyzer/flycheck/0";
  p.update(token, begin("cargo check")); // the old checker's run, still going
  const mark = p.beginCount;
  p.update(token, begin("cargo check")); // the new checker's run, begun after the mark
  expect(p.activeMatching(flycheck)).toHaveLength(2);
  p.update(token, { kind: "end" }); // the old run's end
  expect(p.endedMatching(flycheck, mark)).toBe(false);
  expect(p.activeMatching(flycheck)).toHaveLength(1);
  p.update(token, { kind: "end" });
  expect(p.endedMatching(flycheck, mark)).toBe(true);
  expect(p.active()).toHaveLength(0);
});

test("without the overlapping patterns a begin on an active token replaces its task", () => {
  const p = new ProgressTracker();
  p.update("t", begin("a"));
  const mark = p.beginCount;
  p.update("t", begin("b"));
  expect(p.active()).toHaveLength(1);
  p.update("t", { kind: "end" });
  expect(p.endedMatching([/b/], mark)).toBe(true);
  expect(p.active()).toHaveLength(0);
});

test("overlapping begins that never end are bounded per token", () => {
  const p = new ProgressTracker([/flycheck/]);
  for (let i = 0; i < 1000; i++) p.update("flycheck", begin("cargo check"));
  expect(p.active().length).toBeLessThanOrEqual(4);
});
