/**
 * Readiness over what a server said, bounded where the server's text meets the config's
 * patterns (src/session/readiness.ts, SPEC §3.3, §8): `log_message` is tried on a message's
 * first LOG_MATCH_CHARS characters, and pending lists name a few progress tasks, then
 * count the rest.
 */
import { expect, test } from "bun:test";
import { ProgressTracker } from "../../../src/session/progress.ts";
import { LOG_MATCH_CHARS, Readiness } from "../../../src/session/readiness.ts";
import { readyWith } from "../../support/config-defaults.ts";

const config = readyWith;

test("log_message is tried on the first LOG_MATCH_CHARS characters only", () => {
  const late = new Readiness(config({ log_message: "indexed" }));
  expect(late.onLogMessage(`${"x".repeat(LOG_MATCH_CHARS)}indexed`)).toBe(false);
  const early = new Readiness(config({ log_message: "indexed" }));
  expect(early.onLogMessage(`indexed${"x".repeat(1 << 20)}`)).toBe(true);
});

test("pending conditions name 8 progress tasks, then count the rest", () => {
  const r = new Readiness(config({ progress: ["index"] }));
  const progress = new ProgressTracker();
  for (let i = 0; i < 50; i++) progress.update(`t${i}`, { kind: "begin", title: `index ${i}` });
  const pending = r.pendingStartup(progress);
  expect(pending).toHaveLength(9);
  expect(pending.at(-1)).toBe("42 more progress tasks active");
  expect(r.pendingHold(progress)).toHaveLength(9);
});

test("progress not expected (a warm-up file in no project): the progress conditions are met", () => {
  const r = new Readiness(
    config({ warmup_open: "**/*.ts", progress: ["^Init"], progress_required: true }),
  );
  const progress = new ProgressTracker();
  r.warmupDone = true;
  expect(r.pendingStartup(progress)).toEqual(["progress_required (^Init)"]);
  r.progressNotExpected = "a.ts is in no project";
  expect(r.pendingStartup(progress)).toEqual([]);
  expect(r.conditions(progress)).toContainEqual({
    condition: "progress ^Init (required) (not expected: a.ts is in no project)",
    met: true,
  });
  // a matching task that does run still holds semantic requests
  progress.update("t", { kind: "begin", title: "Init" });
  expect(r.pendingHold(progress)).toEqual(['progress "Init" active']);
});

test("warmup_publish: pending until the warm-up file's first publish", () => {
  const r = new Readiness(config({ warmup_open: "**/*.ts", warmup_publish: true }));
  const progress = new ProgressTracker();
  r.warmupDone = true;
  r.warmupPublish = { file: "src/a.ts", seen: false };
  expect(r.pendingStartup(progress)).toEqual(["warmup_publish src/a.ts"]);
  expect(r.conditions(progress)).toContainEqual({
    condition: "warmup_publish src/a.ts",
    met: false,
  });
  r.warmupPublish.seen = true;
  expect(r.pendingStartup(progress)).toEqual([]);
});
