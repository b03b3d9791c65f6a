/** What session_status says of a workspace watcher (SPEC §5.2, §10), from its facts alone. */
import { describe, expect, test } from "bun:test";
import { type WatchFacts, watchStatus } from "../../../src/workspace/watch-status.ts";

const facts: WatchFacts = {
  root: "/ws",
  watching: true,
  failure: null,
  kernelLimit: false,
  maxWatches: 4,
  watchedDirectories: 4,
  filesIndexed: 10,
  unwatched: [],
  overflows: 0,
};

describe("watchStatus", () => {
  test("all watched: no reason, an estimate that grows with watches and names", () => {
    const status = watchStatus(facts);
    expect(status).toMatchObject({ state: "watching", reason: null, unwatched_directories: 0 });
    const more = watchStatus({ ...facts, watchedDirectories: 5, filesIndexed: 20 });
    expect(more.memory_bytes).toBeGreaterThan(status.memory_bytes);
  });

  test("the reason: no instance first, then the kernel's limit, then the bound", () => {
    const unwatched = ["/ws/z", "/ws/a/deep", ...Array.from({ length: 9 }, (_, i) => `/ws/m${i}`)];
    const bound = watchStatus({ ...facts, unwatched });
    expect(bound.reason).toBe("more than bridge.max_watches (4) directories");
    expect(bound.unwatched_directories).toBe(11);
    // sorted, workspace-relative, at most eight
    expect(bound.unwatched_sample).toEqual(["a/deep", "m0", "m1", "m2", "m3", "m4", "m5", "m6"]);
    expect(watchStatus({ ...facts, unwatched, kernelLimit: true }).reason).toContain(
      "fs.inotify.max_user_watches",
    );
    const none = watchStatus({ ...facts, watching: false, failure: "inotify is not available" });
    expect(none).toMatchObject({ state: "unavailable", reason: "inotify is not available" });
  });
});
