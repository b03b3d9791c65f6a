/**
 * The bridge's one inotify instance (watch-hub.ts) on real directories: owners sharing a
 * directory's descriptor each hear it until they let go, a directory deleted under two
 * owners ends for both, an overflow reaches every owner, a failed instance is tried again,
 * and a workspace with many outside dependencies holds one instance in all.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  DIRECTORY_MASK,
  IN_CREATE,
  IN_IGNORED,
  IN_Q_OVERFLOW,
  Inotify,
  kernelQueueLimit,
} from "../../../src/ffi/inotify.ts";
import type { FileChange } from "../../../src/workspace/file-events.ts";
import { OutsideWatch } from "../../../src/workspace/outside-watch.ts";
import { type Subscription, WorkspaceWatcher } from "../../../src/workspace/watch.ts";
import { InotifyHub, type Watches } from "../../../src/workspace/watch-hub.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";

afterAll(removeTempDirs);

const ends: (() => void)[] = [];
afterEach(() => {
  for (const end of ends.splice(0)) end();
});

/** The inotify instances this process holds. */
function instances(): number {
  let n = 0;
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === "anon_inode:inotify") n += 1;
    } catch {
      // closed while listed (readdir's own descriptor)
    }
  }
  return n;
}

function watchesOf(hub: InotifyHub): Watches {
  const w = hub.watches();
  if ("error" in w) throw new Error(w.error);
  ends.push(() => w.close());
  return w;
}

/** A watcher on `root` in `hub`, everything of interest; `poll()` returns what it delivered. */
function watcher(hub: InotifyHub, root: string) {
  const w = new WorkspaceWatcher(root, 100, hub);
  let got: FileChange[] = [];
  const sub = w.subscribe(
    () => true,
    (changes) => got.push(...changes),
  );
  ends.push(() => sub.close());
  const poll = (): string[] => {
    w.poll();
    const out = got.map((c) => `${c.kind} ${c.abs}`);
    got = [];
    return out;
  };
  return { w, sub, poll };
}

describe("InotifyHub: one directory, two owners", () => {
  test("both hear it; one lets go, the other still hears; the last closes the instance", () => {
    const root = tempDir("theodolite-hub-", { "sub/x.c": "x" });
    const sub = join(root, "sub");
    const hub = new InotifyHub();
    const before = instances();
    const whole = watcher(hub, root);
    const dep = watcher(hub, sub); // an outside dependency on a directory the root holds
    expect(instances()).toBe(before + 1);
    writeFileSync(join(sub, "x.c"), "x2");
    // either poll drains the one queue: the other owner's events wait for its own poll
    expect(dep.poll()).toEqual([`changed ${sub}/x.c`]);
    expect(whole.poll()).toEqual([`changed ${sub}/x.c`]);
    whole.sub.close();
    writeFileSync(join(sub, "y.c"), "y");
    expect(dep.poll()).toEqual([`created ${sub}/y.c`]);
    expect(whole.poll()).toEqual([]);
    dep.sub.close();
    expect(hub.instances()).toBe(0);
    expect(instances()).toBe(before);
  });

  test("one directory by two paths: one descriptor, each owner's events kept apart", () => {
    const base = tempDir("theodolite-hub-", { "d/a": "a" });
    symlinkSync(join(base, "d"), join(base, "link"));
    const hub = new InotifyHub();
    const a = watchesOf(hub);
    const b = watchesOf(hub);
    const wa = a.addWatch(join(base, "d"), DIRECTORY_MASK);
    const wb = b.addWatch(join(base, "link"), IN_CREATE);
    expect(typeof wa).toBe("number");
    expect(wb).toBe(wa);
    writeFileSync(join(base, "d", "a"), "a2"); // a modification: `b` did not ask for it
    writeFileSync(join(base, "d", "new"), "n");
    expect(new Set(a.drain().map((e) => e.name))).toEqual(new Set(["a", "new"]));
    expect(b.drain().map((e) => e.name)).toEqual(["new"]);
    // `a` lets go: the kernel's watch stays for `b`
    a.removeWatch(wa as number);
    writeFileSync(join(base, "d", "more"), "m");
    expect(b.drain().map((e) => e.name)).toEqual(["more"]);
    expect(a.drain()).toEqual([]);
  });

  test("a directory deleted under two owners ends for both; made again, it is heard", () => {
    const root = tempDir("theodolite-hub-", { "d/x.c": "x", "keep.c": "k" });
    const d = join(root, "d");
    const hub = new InotifyHub();
    const whole = watcher(hub, root);
    const dep = watcher(hub, d);
    rmSync(d, { recursive: true });
    expect(whole.poll()).toEqual([`deleted ${d}/x.c`]);
    expect(dep.poll()).toEqual([`deleted ${d}/x.c`]);
    expect(dep.w.status().watched_directories).toBe(0);
    mkdirSync(d);
    writeFileSync(join(d, "y.c"), "y");
    expect(whole.poll()).toEqual([`created ${d}/y.c`]);
    writeFileSync(join(d, "y.c"), "y2");
    expect(whole.poll()).toEqual([`changed ${d}/y.c`]);
    expect(dep.poll()).toEqual([]); // its watch ended with the directory
  });
});

describe("InotifyHub: overflow", () => {
  test("the kernel's queue overflowing reaches every owner: each compares with the disk", () => {
    const base = tempDir("theodolite-hub-", { "quiet/q.c": "q", "other/o.c": "o" });
    mkdirSync(join(base, "busy"));
    const hub = new InotifyHub();
    const busy = watcher(hub, join(base, "busy"));
    const quiet = watcher(hub, join(base, "quiet"));
    const other = watcher(hub, join(base, "other"));
    // 64 names in turn: the kernel merges an event identical to the one before it
    for (let i = 0; i <= kernelQueueLimit(); i++) {
      writeFileSync(join(base, "busy", `f${i % 64}`), String(i));
    }
    rmSync(join(base, "quiet", "q.c"));
    expect(quiet.poll()).toEqual([`deleted ${base}/quiet/q.c`]);
    expect(quiet.w.status().overflows).toBe(1);
    expect(busy.poll().length).toBe(64);
    expect(busy.w.status().overflows).toBe(1);
    // the third owner, polled last, lost events too: it rescans, files it holds changed
    expect(other.poll()).toEqual([`changed ${base}/other/o.c`]);
    expect(other.w.status().overflows).toBe(1);
    writeFileSync(join(base, "quiet", "r.c"), "r");
    expect(quiet.poll()).toEqual([`created ${base}/quiet/r.c`]);
  });

  test("an owner that does not drain while others do is told of an overflow, its ends kept", () => {
    const base = tempDir("theodolite-hub-", { "busy/f": "0", "idle/gone/g": "g" });
    const hub = new InotifyHub(undefined, 10);
    const drains = watchesOf(hub);
    const idle = watchesOf(hub);
    expect(typeof drains.addWatch(join(base, "busy"), DIRECTORY_MASK)).toBe("number");
    expect(typeof idle.addWatch(join(base, "idle"), DIRECTORY_MASK)).toBe("number");
    const gone = idle.addWatch(join(base, "idle", "gone"), DIRECTORY_MASK);
    rmSync(join(base, "idle", "gone"), { recursive: true });
    for (let i = 0; i < 30; i++) writeFileSync(join(base, "idle", `f${i}`), String(i));
    expect(drains.drain()).toEqual([]);
    const got = idle.drain();
    expect(got.filter((e) => (e.mask & IN_Q_OVERFLOW) !== 0).length).toBe(1);
    expect(got.some((e) => e.wd === gone && (e.mask & IN_IGNORED) !== 0)).toBe(true);
    expect(got.length).toBeLessThanOrEqual(10);
    writeFileSync(join(base, "idle", "after"), "a");
    expect(idle.drain().map((e) => e.name)).toContain("after");
  });
});

describe("InotifyHub: no instance", () => {
  test("a failed instance is said (unwatched) and tried again on a later subscription", () => {
    const root = tempDir("theodolite-hub-", { "a.c": "a" });
    let refuse = true;
    const hub = new InotifyHub(() => (refuse ? { error: "used up" } : Inotify.open()));
    const first = watcher(hub, root);
    expect(first.sub.unwatched()).toBe(1);
    expect(first.w.status().state).toBe("unavailable");
    refuse = false;
    const second: Subscription = first.w.subscribe(
      () => true,
      () => {},
    );
    ends.push(() => second.close());
    expect(first.w.status().state).toBe("watching");
    expect(first.sub.unwatched()).toBe(0);
    writeFileSync(join(root, "a.c"), "a2");
    expect(first.poll()).toEqual([`changed ${root}/a.c`]);
  });
});

describe("InotifyHub: a workspace's outside dependencies", () => {
  test("ten outside dependencies and the root: one instance in all", () => {
    const base = tempDir("theodolite-hub-", { "proj/a.c": "a" });
    const root = join(base, "proj");
    const deps = Array.from({ length: 10 }, (_, i) => join(base, `dep${i}`));
    for (const d of deps) {
      mkdirSync(d);
      writeFileSync(join(d, "h.h"), "h");
    }
    const before = instances();
    const hub = new InotifyHub();
    const whole = watcher(hub, root);
    const outside = new OutsideWatch(
      hub,
      root,
      () => undefined,
      () => [],
    );
    ends.push(() => outside.close());
    const got: FileChange[] = [];
    const sub = outside.subscribe((c) => got.push(...c));
    sub.depend(deps.map((path) => ({ path, kind: "tree", source: "a test", ownRead: true })));
    expect(outside.status().filter((s) => s.watched).length).toBe(10);
    expect(instances()).toBe(before + 1);
    writeFileSync(join(deps[9] as string, "h.h"), "h2");
    writeFileSync(join(root, "a.c"), "a2");
    outside.poll();
    expect(got.map((c) => c.abs)).toEqual([join(deps[9] as string, "h.h")]);
    expect(whole.poll()).toEqual([`changed ${root}/a.c`]);
    sub.close();
    outside.close();
    whole.sub.close();
    expect(instances()).toBe(before);
  });
});
