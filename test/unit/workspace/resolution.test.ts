/**
 * A tool's `file` resolved, or its last resolution reused while the watcher vouches that
 * no path changed (SPEC §8.1 step 1). A fake feed stands for the watcher where the test
 * decides what was drained; the real watcher shows which changes move its namespace.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import {
  chmodSync,
  mkdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { type NamespaceFeed, ResolutionVouchers } from "../../../src/workspace/resolution.ts";
import { type Subscription, WorkspaceWatcher } from "../../../src/workspace/watch.ts";
import { removeTempTrees, tempTree } from "../../support/temp-tree.ts";
import { thrown } from "../../support/thrown.ts";

afterAll(removeTempTrees);

class FakeFeed implements NamespaceFeed {
  readonly covered = new Set<string>();
  moves = 0;
  polls = 0;
  /** what the next drain reads: true = an event that moves the namespace */
  onPoll: () => boolean = () => false;
  poll(): void {
    this.polls += 1;
    if (this.onPoll()) this.moves += 1;
  }
  coverage(abs: string): number | undefined {
    return this.covered.has(abs) ? 1 : undefined;
  }
  namespace(): number {
    return this.moves;
  }
}

function setup() {
  const base = tempTree({ "ws/src/a.ts": "a", "ws/src/b.ts": "b", "outside/x.ts": "x" });
  const ws = join(base, "ws");
  const feed = new FakeFeed();
  let current: NamespaceFeed | undefined = feed;
  const vouchers = new ResolutionVouchers(() => current);
  return {
    base,
    ws,
    feed,
    vouchers,
    setFeed: (f: NamespaceFeed | undefined) => {
      current = f;
    },
  };
}

/** Replace `ws/src` by a link to the directory outside: every old path now leads out. */
function swapSrcOut(base: string): void {
  renameSync(join(base, "ws", "src"), join(base, "ws", "src.old"));
  symlinkSync(join(base, "outside"), join(base, "ws", "src"));
  writeFileSync(join(base, "outside", "a.ts"), "outside");
}

describe("ResolutionVouchers", () => {
  test("a covered file's resolution is reused, without a look, until the namespace moves", () => {
    const { base, ws, feed, vouchers } = setup();
    feed.covered.add(join(ws, "src", "a.ts"));
    const first = vouchers.resolve(ws, "src/a.ts");
    expect(first).toEqual({ abs: join(ws, "src", "a.ts"), rel: "src/a.ts" });
    swapSrcOut(base);
    // nothing was drained: the vouch stands (the watcher's events are what it trusts)
    expect(vouchers.resolve(ws, "src/a.ts")).toBe(first);
    // the drain reads the swap's events: resolved again, and refused
    feed.onPoll = () => true;
    expect(thrown(() => vouchers.resolve(ws, "src/a.ts")).code).toBe("PathOutsideWorkspace");
  });

  test("the watcher is drained before every reuse; a first resolution needs no drain", () => {
    const { base, ws, feed, vouchers } = setup();
    feed.covered.add(join(ws, "src", "a.ts"));
    vouchers.resolve(ws, "src/a.ts");
    expect(feed.polls).toBe(0);
    vouchers.resolve(ws, "src/a.ts");
    expect(feed.polls).toBe(1);
    // the change was queued before the first look but drained only now: still seen
    swapSrcOut(base);
    feed.onPoll = () => true;
    expect(thrown(() => vouchers.resolve(ws, "src/a.ts")).code).toBe("PathOutsideWorkspace");
    expect(feed.polls).toBe(2);
  });

  test("a resolution remembers the namespace of before its look: an event still queued moves it", () => {
    const { base, ws, feed, vouchers } = setup();
    feed.covered.add(join(ws, "src", "a.ts"));
    // the directory is swapped and back before the first call: its events wait in the queue
    swapSrcOut(base);
    rmSync(join(base, "ws", "src"));
    renameSync(join(base, "ws", "src.old"), join(base, "ws", "src"));
    const first = vouchers.resolve(ws, "src/a.ts");
    // the queued events are drained by the reuse: resolved again, not taken on trust
    feed.onPoll = () => true;
    const second = vouchers.resolve(ws, "src/a.ts");
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
  });

  test("a file no watch covered before the look is resolved on every call", () => {
    const { base, ws, vouchers } = setup();
    expect(vouchers.resolve(ws, "src/a.ts").abs).toBe(join(ws, "src", "a.ts"));
    swapSrcOut(base);
    expect(thrown(() => vouchers.resolve(ws, "src/a.ts")).code).toBe("PathOutsideWorkspace");
  });

  test("coverage is asked before the look: a change right after it is seen by the look", () => {
    const { base, ws, feed, vouchers } = setup();
    const abs = join(ws, "src", "a.ts");
    let swapped = false;
    feed.coverage = (p: string) => {
      // the swap lands between the question and the look; a look made before the question
      // would have been vouched for with what it saw before the swap
      if (!swapped) swapOut();
      return p === abs ? 1 : undefined;
    };
    const swapOut = () => {
      swapped = true;
      swapSrcOut(base);
    };
    expect(thrown(() => vouchers.resolve(ws, "src/a.ts")).code).toBe("PathOutsideWorkspace");
  });

  test("a path through a link is resolved on every call, even when its target is covered", () => {
    const { base, ws, feed, vouchers } = setup();
    symlinkSync(join(ws, "src", "b.ts"), join(ws, "src", "link.ts"));
    feed.covered.add(join(ws, "src", "b.ts"));
    feed.covered.add(join(ws, "src", "link.ts"));
    expect(vouchers.resolve(ws, "src/link.ts")).toEqual({
      abs: join(ws, "src", "b.ts"),
      rel: "src/b.ts",
    });
    unlinkSync(join(ws, "src", "link.ts"));
    symlinkSync(join(base, "outside", "x.ts"), join(ws, "src", "link.ts"));
    expect(thrown(() => vouchers.resolve(ws, "src/link.ts")).code).toBe("PathOutsideWorkspace");
  });

  test("absolute and relative spellings are vouched for each; another watcher vouches for neither", () => {
    const { base, ws, feed, vouchers, setFeed } = setup();
    const abs = join(ws, "src", "a.ts");
    feed.covered.add(abs);
    const byAbs = vouchers.resolve(ws, abs);
    const byRel = vouchers.resolve(ws, "src/a.ts");
    swapSrcOut(base);
    expect(vouchers.resolve(ws, abs)).toBe(byAbs);
    expect(vouchers.resolve(ws, "src/a.ts")).toBe(byRel);
    const other = new FakeFeed();
    other.covered.add(abs);
    setFeed(other);
    expect(thrown(() => vouchers.resolve(ws, abs)).code).toBe("PathOutsideWorkspace");
    setFeed(undefined);
    expect(thrown(() => vouchers.resolve(ws, "src/a.ts")).code).toBe("PathOutsideWorkspace");
  });

  test("failures are never remembered: a missing file found once it exists", () => {
    const { ws, feed, vouchers } = setup();
    feed.covered.add(join(ws, "src", "new.ts"));
    expect(thrown(() => vouchers.resolve(ws, "src/new.ts")).code).toBe("FileNotFound");
    writeFileSync(join(ws, "src", "new.ts"), "n");
    expect(vouchers.resolve(ws, "src/new.ts").rel).toBe("src/new.ts");
    expect(thrown(() => vouchers.resolve(ws, "src")).code).toBe("FileNotFound");
    expect(thrown(() => vouchers.resolve(ws, "../outside/x.ts")).code).toBe("PathOutsideWorkspace");
  });
});

describe("with the workspace watcher", () => {
  let subs: Subscription[] = [];
  afterEach(() => {
    for (const s of subs) s.close();
    subs = [];
  });

  function watched(base: string) {
    const ws = join(base, "ws");
    const watcher = new WorkspaceWatcher(ws, 1000);
    subs.push(
      watcher.subscribe(
        () => true,
        () => {},
      ),
    );
    return { ws, watcher, vouchers: new ResolutionVouchers(() => watcher) };
  }

  test("a directory swapped for a link out is seen by the next call", () => {
    const base = tempTree({ "ws/src/a.ts": "a", "outside/x.ts": "x" });
    const { ws, vouchers } = watched(base);
    expect(vouchers.resolve(ws, "src/a.ts").rel).toBe("src/a.ts");
    expect(vouchers.resolve(ws, "src/a.ts").rel).toBe("src/a.ts");
    swapSrcOut(base);
    expect(thrown(() => vouchers.resolve(ws, "src/a.ts")).code).toBe("PathOutsideWorkspace");
  });

  test("a file replaced by a directory, or by a link out, is seen by the next call", () => {
    const base = tempTree({ "ws/src/a.ts": "a", "ws/src/b.ts": "b", "outside/x.ts": "x" });
    const { ws, vouchers } = watched(base);
    vouchers.resolve(ws, "src/a.ts");
    vouchers.resolve(ws, "src/b.ts");
    rmSync(join(ws, "src", "a.ts"));
    mkdirSync(join(ws, "src", "a.ts"));
    expect(thrown(() => vouchers.resolve(ws, "src/a.ts")).code).toBe("FileNotFound");
    const link = join(ws, "src", "b.tmp");
    symlinkSync(join(base, "outside", "x.ts"), link);
    renameSync(link, join(ws, "src", "b.ts"));
    expect(thrown(() => vouchers.resolve(ws, "src/b.ts")).code).toBe("PathOutsideWorkspace");
  });

  test("the namespace moves on names and attributes, not on a file's writes", () => {
    const base = tempTree({ "ws/src/a.ts": "a" });
    const { ws, watcher } = watched(base);
    const moved = (change: () => void): boolean => {
      watcher.poll();
      const before = watcher.namespace();
      change();
      watcher.poll();
      return watcher.namespace() !== before;
    };
    expect(moved(() => writeFileSync(join(ws, "src", "a.ts"), "a2"))).toBe(false);
    expect(moved(() => writeFileSync(join(ws, "src", "n.ts"), "n"))).toBe(true);
    expect(moved(() => chmodSync(join(ws, "src", "a.ts"), 0o600))).toBe(true);
    expect(moved(() => chmodSync(join(ws, "src"), 0o700))).toBe(true);
    expect(moved(() => renameSync(join(ws, "src", "n.ts"), join(ws, "src", "m.ts")))).toBe(true);
    expect(moved(() => unlinkSync(join(ws, "src", "m.ts")))).toBe(true);
    expect(moved(() => mkdirSync(join(ws, "src", "d")))).toBe(true);
    expect(moved(() => rmSync(join(ws, "src", "d"), { recursive: true }))).toBe(true);
    expect(moved(() => {})).toBe(false);
  });
});
