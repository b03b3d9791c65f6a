/**
 * The workspace watcher (SPEC §5.2) on a real directory: inotify events drained
 * synchronously, so a change made before `poll()` is always in its result — the tests
 * never wait. Created / changed / deleted for files, whole new or removed directories,
 * renames, atomic saves, what is never watched (VCS internals, node_modules packages,
 * CACHEDIR.TAG directories, symlinked directories), the watch bound and a queue overflow
 * (the raw event parser: inotify.test.ts).
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import {
  chmodSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type { FileChange } from "../../../src/workspace/file-events.ts";
import { WorkspaceWatcher } from "../../../src/workspace/watch.ts";
import { InotifyHub } from "../../../src/workspace/watch-hub.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";
import { closeWatchers, keep, watch, write } from "../../support/watching.ts";

afterAll(removeTempDirs);
afterEach(closeWatchers);

const tree = (files: Record<string, string>) => tempDir("theodolite-watch-", files);

/** fs.inotify.max_queued_events (16384 by default): one more write than this overflows the queue. */
function maxQueuedEvents(): number {
  return Number(readFileSync("/proc/sys/fs/inotify/max_queued_events", "utf8"));
}

describe("WorkspaceWatcher", () => {
  test("the baseline is silent; then created, changed, deleted, each seen by the next poll", () => {
    const root = tree({ "a.py": "a", "pkg/b.py": "b" });
    const { poll } = watch(root);
    expect(poll()).toEqual([]);
    write(root, "c.py", "c");
    expect(poll()).toEqual([["created", "c.py"]]);
    write(root, "pkg/b.py", "b2");
    expect(poll()).toEqual([["changed", "pkg/b.py"]]);
    unlinkSync(join(root, "a.py"));
    expect(poll()).toEqual([["deleted", "a.py"]]);
    expect(poll()).toEqual([]);
  });

  test("a file's mode or times set is a change of it; a directory's is no file's", () => {
    const root = tree({ "a.py": "a", "pkg/b.py": "b" });
    const { poll } = watch(root);
    chmodSync(join(root, "a.py"), 0o600);
    expect(poll()).toEqual([["changed", "a.py"]]);
    utimesSync(join(root, "pkg", "b.py"), 1, 1);
    expect(poll()).toEqual([["changed", "pkg/b.py"]]);
    chmodSync(join(root, "pkg"), 0o700);
    expect(poll()).toEqual([]);
  });

  test("no race with the kernel queue: 300 writes, each in the very next poll", () => {
    const root = tree({ "f.txt": "0" });
    const { poll } = watch(root);
    for (let i = 1; i <= 300; i++) {
      write(root, "f.txt", String(i));
      expect(poll()).toEqual([["changed", "f.txt"]]);
    }
  });

  test("a new directory tree is watched at once and its files are created", () => {
    const root = tree({ "a.py": "a" });
    const { poll } = watch(root);
    write(root, "new/deep/x.py", "x");
    write(root, "new/y.py", "y");
    expect(poll().sort()).toEqual([
      ["created", "new/deep/x.py"],
      ["created", "new/y.py"],
    ]);
    write(root, "new/deep/x.py", "x2");
    expect(poll()).toEqual([["changed", "new/deep/x.py"]]);
  });

  test("a removed or renamed directory: its files deleted, and created under the new name", () => {
    const root = tree({ "d/one.py": "1", "d/sub/two.py": "2", "keep.py": "k" });
    const { poll } = watch(root);
    renameSync(join(root, "d"), join(root, "e"));
    expect(poll().sort()).toEqual([
      ["created", "e/one.py"],
      ["created", "e/sub/two.py"],
      ["deleted", "d/one.py"],
      ["deleted", "d/sub/two.py"],
    ]);
    rmSync(join(root, "e"), { recursive: true });
    expect(poll().sort()).toEqual([
      ["deleted", "e/one.py"],
      ["deleted", "e/sub/two.py"],
    ]);
    write(root, "e/again.py", "a");
    expect(poll()).toEqual([["created", "e/again.py"]]);
  });

  test("a directory above the root moved: the root's files are gone, and its path is watched anew", () => {
    const base = tree({ "w/proj/a.py": "a", "w/proj/sub/b.py": "b" });
    const root = join(base, "w", "proj");
    const { poll, sub } = watch(root);
    // the root's path now names another directory: what was watched is not there
    renameSync(join(base, "w"), join(base, "w-old"));
    write(root, "a.py", "other");
    expect(poll().sort()).toEqual([
      ["deleted", "a.py"],
      ["deleted", "sub/b.py"],
    ]);
    // a change in the old tree is no change of the root's
    write(join(base, "w-old", "proj"), "a.py", "old again");
    expect(poll()).toEqual([]);
    // laid out again (as a restarted session's registrations do): the new directory
    sub.refresh();
    write(root, "c.py", "c");
    expect(poll()).toEqual([["created", "c.py"]]);
  });

  test("an atomic save (temp file renamed over) is one change; delete then create is a change", () => {
    const root = tree({ "m.py": "1" });
    const { poll } = watch(root);
    write(root, ".m.py.tmp", "2");
    renameSync(join(root, ".m.py.tmp"), join(root, "m.py"));
    expect(poll()).toEqual([["changed", "m.py"]]);
    unlinkSync(join(root, "m.py"));
    write(root, "m.py", "3");
    expect(poll()).toEqual([["changed", "m.py"]]);
    write(root, "t.py", "x");
    unlinkSync(join(root, "t.py"));
    expect(poll()).toEqual([]);
  });

  test("never watched: VCS internals, node_modules packages, CACHEDIR.TAG trees, symlinked directories", () => {
    const outside = tree({ "o.py": "o" });
    const root = tree({
      ".git/HEAD": "ref",
      "node_modules/top.js": "t",
      "node_modules/pkg/index.js": "p",
      "target/CACHEDIR.TAG": "Signature: 8a477f597d28d172789f06886806bc55",
      "target/debug/x.rs": "x",
      "src/m.py": "m",
    });
    symlinkSync(outside, join(root, "linked"));
    const { poll, watcher } = watch(root);
    expect(watcher.status().watched_directories).toBe(3); // root, node_modules, src
    write(root, ".git/HEAD", "ref2");
    write(root, "node_modules/pkg/index.js", "p2");
    write(root, "target/debug/x.rs", "x2");
    write(outside, "o.py", "o2");
    expect(poll()).toEqual([]);
    write(root, "node_modules/top.js", "t2");
    write(root, "src/m.py", "m2");
    expect(poll()).toEqual([
      ["changed", "node_modules/top.js"],
      ["changed", "src/m.py"],
    ]);
    // a directory that tags itself as a cache later is dropped, quietly
    write(root, "src/cache/CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55");
    poll();
    write(root, "src/cache/blob", "b");
    expect(poll()).toEqual([]);
  });

  test("only directories of interest are watched", () => {
    const root = tree({ "src/a.rs": "a", "docs/b.md": "b" });
    const { poll, watcher } = watch(root, 1000, (d) => d === root || d.startsWith(`${root}/src`));
    expect(watcher.status().watched_directories).toBe(2);
    write(root, "docs/b.md", "b2");
    write(root, "src/a.rs", "a2");
    expect(poll()).toEqual([["changed", "src/a.rs"]]);
  });

  test("each subscriber hears only the directories it asks about", () => {
    const root = tree({ "src/a.rs": "a", ".cache/i.idx": "i" });
    const { poll, watcher } = watch(root); // interest: everything
    const heard: FileChange[] = [];
    const visibleOnly = watcher.subscribe(
      (d) => !d.slice(root.length).includes("/."),
      (changes) => heard.push(...changes),
    );
    keep(visibleOnly);
    write(root, ".cache/i.idx", "i2");
    write(root, "src/a.rs", "a2");
    expect(poll()).toEqual([
      ["changed", ".cache/i.idx"],
      ["changed", "src/a.rs"],
    ]);
    expect(heard).toEqual([{ abs: join(root, "src/a.rs"), kind: "changed" }]);
  });

  test("past max_watches: breadth first, and status names what is not watched", () => {
    const root = tree({ "a/x.py": "", "b/y.py": "", "a/deep/z.py": "" });
    const { poll, watcher } = watch(root, 3);
    const status = watcher.status();
    expect(status).toMatchObject({
      state: "watching",
      watched_directories: 3,
      max_watches: 3,
      unwatched_directories: 1,
      unwatched_sample: ["a/deep"],
      files_indexed: 2,
    });
    expect(status.reason).toContain("bridge.max_watches (3)");
    expect(status.memory_bytes).toBeGreaterThan(3 * 1000);
    write(root, "a/deep/z.py", "changed");
    expect(poll()).toEqual([]);
    write(root, "b/y.py", "changed");
    expect(poll()).toEqual([["changed", "b/y.py"]]);
  });

  test("a queue overflow falls back to comparing every watched directory with the disk", () => {
    const root = tree({ "keep.txt": "k", "gone.txt": "g" });
    const { poll, watcher } = watch(root);
    const max = maxQueuedEvents();
    mkdirSync(join(root, "many"));
    expect(poll()).toEqual([]);
    for (let i = 0; i <= max; i++) writeFileSync(join(root, "many", `f${i % 64}`), String(i));
    unlinkSync(join(root, "gone.txt"));
    const out = poll();
    expect(watcher.status().overflows).toBe(1);
    expect(out).toContainEqual(["deleted", "gone.txt"]);
    expect(out).toContainEqual(["changed", "keep.txt"]);
    expect(out.filter(([, p]) => p.startsWith("many/")).length).toBe(64);
    write(root, "keep.txt", "after");
    expect(poll()).toEqual([["changed", "keep.txt"]]);
  });

  test("after an overflow, a directory deleted and recreated in the lost events is watched anew", () => {
    const root = tree({ "d/x.ts": "x", "keep.txt": "k" });
    const { poll, watcher } = watch(root);
    mkdirSync(join(root, "many"));
    expect(poll()).toEqual([]);
    for (let i = 0; i <= maxQueuedEvents(); i++) {
      writeFileSync(join(root, "many", `f${i % 64}`), String(i));
    }
    // the old directory's watch ends (its IN_IGNORED, if queued at all, is in the overflowed batch)
    rmSync(join(root, "d"), { recursive: true });
    mkdirSync(join(root, "d"));
    writeFileSync(join(root, "d", "x.ts"), "x2");
    const out = poll();
    expect(watcher.status().overflows).toBe(1);
    expect(out).toContainEqual(["changed", "d/x.ts"]);
    // the new directory has its own watch: later changes there are reported
    write(root, "d/y.ts", "y");
    expect(poll()).toEqual([["created", "d/y.ts"]]);
    write(root, "d/x.ts", "x3");
    expect(poll()).toEqual([["changed", "d/x.ts"]]);
  });

  test("the last subscriber closing releases the inotify instance", () => {
    const root = tree({ "a.py": "a" });
    const watcher = new WorkspaceWatcher(root, 10, new InotifyHub());
    const sub = watcher.subscribe(
      () => true,
      () => {},
    );
    expect(watcher.status().watched_directories).toBe(1);
    sub.close();
    expect(watcher.status().watched_directories).toBe(0);
  });
});

describe("no watch at all", () => {
  // in a process of its own: it uses up the user's inotify instances for a moment
  const script = `
import { Inotify } from ${JSON.stringify(join(import.meta.dir, "../../../src/ffi/inotify.ts"))};
import { WorkspaceWatcher } from ${JSON.stringify(join(import.meta.dir, "../../../src/workspace/watch.ts"))};
import { InotifyHub } from ${JSON.stringify(join(import.meta.dir, "../../../src/workspace/watch-hub.ts"))};
const held = [];
for (let i = 0; i < 100000; i++) {
  const one = Inotify.open();
  if (!(one instanceof Inotify)) break;
  held.push(one);
}
const watcher = new WorkspaceWatcher(process.argv[2], 100, new InotifyHub());
const sub = watcher.subscribe(() => true, () => {});
const out = { state: watcher.status().state, unwatched: sub.unwatched() };
sub.close();
for (const one of held) one.close();
console.log(JSON.stringify(out));
`;
  test("the kernel's instances used up: the root, whole, counts as unwatched", () => {
    const root = tree({ "a.py": "a" });
    const file = join(tempDir("theodolite-watch-script-"), "no-watch.ts");
    writeFileSync(file, script);
    const run = Bun.spawnSync([process.execPath, file, root], { stderr: "pipe" });
    expect(run.stderr.toString()).toBe("");
    expect(JSON.parse(run.stdout.toString())).toEqual({ state: "unavailable", unwatched: 1 });
  });
});
