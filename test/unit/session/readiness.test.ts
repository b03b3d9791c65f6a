/**
 * Readiness over what a server said, bounded where the server's text meets the config's
 * patterns (src/session/readiness.ts, SPEC §3.3, §8): `log_message` is tried on a message's
 * first LOG_MATCH_CHARS characters, and pending lists name a few progress tasks, then
 * count the rest.
 */
import { expect, test } from "bun:test";
import type { ReadyConfig } from "../../../src/config/types.ts";
import { ProgressTracker } from "../../../src/session/progress.ts";
import { LOG_MATCH_CHARS, Readiness } from "../../../src/session/readiness.ts";

function config(over: Partial<ReadyConfig> = {}): ReadyConfig {
  return {
    quiescent: false,
    progress: [],
    progress_required: false,
    warmup_open: null,
    log_message: null,
    probe: null,
    ...over,
  };
}

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
