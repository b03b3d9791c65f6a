/** What session_status says of a workspace watcher (SPEC §5.2, §10), from its facts alone. */
import { describe, expect, test } from "bun:test";
import { type WatchFacts, watchStatus } from "../../../src/workspace/watch-status.ts";

const facts: WatchFacts = {
  root: "/ws",
  watching: true,
  failure: null,
  kernelLimit: false,
  boundHit: false,
  maxWatches: 4,
  watchedDirectories: 4,
  filesIndexed: 10,
  unwatched: new Map(),
  exact: true,
  containers: 0,
  packages: 0,
  links: 0,
  linksNotFollowed: 0,
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
    const roots = ["/ws/z", "/ws/a/deep", ...Array.from({ length: 9 }, (_, i) => `/ws/m${i}`)];
    // each unwatched subtree counts every directory in it
    const unwatched = new Map(roots.map((r, i) => [r, i + 1]));
    const bound = watchStatus({ ...facts, unwatched, boundHit: true });
    expect(bound.reason).toBe("more than bridge.max_watches (4) directories");
    expect(bound.unwatched_directories).toBe(66);
    expect(bound.unwatched_exact).toBe(true);
    // sorted, workspace-relative, at most eight
    expect(bound.unwatched_sample).toEqual(["a/deep", "m0", "m1", "m2", "m3", "m4", "m5", "m6"]);
    expect(
      watchStatus({ ...facts, unwatched, boundHit: true, kernelLimit: true }).reason,
    ).toContain("fs.inotify.max_user_watches");
    const none = watchStatus({ ...facts, watching: false, failure: "inotify is not available" });
    expect(none).toMatchObject({ state: "unavailable", reason: "inotify is not available" });
  });

  test("paths too long for the kernel: their own reason, shortened in the sample", () => {
    const deep = `/ws/${"d/".repeat(2100)}d`;
    const status = watchStatus({ ...facts, unwatched: new Map([[deep, 900]]), exact: false });
    expect(status.reason).toBe("paths longer than the kernel accepts (PATH_MAX)");
    expect(status).toMatchObject({ unwatched_directories: 900, unwatched_exact: false });
    const [sample] = status.unwatched_sample;
    expect(sample?.length).toBe(159);
    expect(sample).toStartWith("d/d/");
    expect(sample).toContain("…");
  });

  test("dependency trees and links are said as followed", () => {
    const status = watchStatus({ ...facts, containers: 2, packages: 40, links: 3 });
    expect(status.packages).toEqual({ containers: 2, followed: 40 });
    expect(status.links).toEqual({ followed: 3, not_followed: 0 });
  });
});
