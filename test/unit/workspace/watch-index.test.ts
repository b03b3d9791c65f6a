/**
 * The watcher's index (SPEC §5.2). Past `bridge.max_watches` it watches by priority — open
 * documents' directories and their ancestors, then directories holding source files, then
 * the rest (the pure order: watch-order.test.ts). A file the bridge can no longer read is
 * deleted for the servers and created again once it can; a mode change that keeps it
 * readable stays a change — root reads every file, so that runs as an unprivileged user
 * (`nobody` through setpriv under the CI), in a child that changes the modes itself (only
 * a file's owner may).
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";
import { openTempDir, unprivilegedPrefix } from "../../support/unprivileged.ts";
import { closeWatchers, watch, write } from "../../support/watching.ts";

afterAll(removeTempDirs);
afterEach(closeWatchers);

describe("past the bound, by priority", () => {
  /** 12 directories: z0..z4 without sources, src/{a,b}, and the open document's chain */
  function spread(): string {
    return tempDir("theodolite-tree-", {
      "z0/x.md": "",
      "z1/x.md": "",
      "z2/x.md": "",
      "z3/x.md": "",
      "z4/x.md": "",
      "src/a/m.py": "",
      "src/b/n.py": "",
      "work/deep/er/doc.py": "",
    });
  }

  test("source directories before the rest, not listing order; the rest counted", () => {
    const root = spread();
    const isSource = (name: string) => name.endsWith(".py");
    const { watcher, poll } = watch(root, 6, () => true, { isSource });
    const status = watcher.status();
    expect(status).toMatchObject({ watched_directories: 6, unwatched_directories: 6 });
    // root, src, work, src/a, src/b, work/deep: every z* is left, and work/deep/er
    expect(status.unwatched_sample).toEqual(["work/deep/er", "z0", "z1", "z2", "z3", "z4"]);
    write(root, "src/b/n.py", "changed");
    write(root, "z0/x.md", "changed");
    expect(poll()).toEqual([["changed", "src/b/n.py"]]);
  });

  test("an open document's directory and its ancestors first, also once it is opened later", () => {
    const root = spread();
    const open = new Set([join(root, "z3")]);
    const { watcher, sub, poll } = watch(root, 5, () => true, { focus: () => open });
    // root, z3 (an open document's), then src, work, z0 by depth and path
    expect(watcher.status().unwatched_sample).toEqual([
      "src/a",
      "src/b",
      "work/deep",
      "z1",
      "z2",
      "z4",
    ]);
    expect(sub.unwatched()).toBe(7);
    open.add(join(root, "work/deep/er"));
    sub.focusChanged();
    expect(watcher.status().unwatched_sample).toEqual(["src", "z0", "z1", "z2", "z4"]);
    write(root, "work/deep/er/doc.py", "changed");
    write(root, "z3/x.md", "changed");
    expect(poll()).toEqual([
      ["changed", "work/deep/er/doc.py"],
      ["changed", "z3/x.md"],
    ]);
    expect(sub.unwatched()).toBe(7);
  });
});

const SRC = join(import.meta.dir, "..", "..", "..", "src");
const home = openTempDir("theodolite-unprivileged-");
afterAll(removeTempDirs);

const SCRIPT = `
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WorkspaceWatcher } from ${JSON.stringify(join(SRC, "workspace", "watch.ts"))};
import { InotifyHub } from ${JSON.stringify(join(SRC, "workspace", "watch-hub.ts"))};

const root = realpathSync(mkdtempSync(join(tmpdir(), "theodolite-readable-")));
mkdirSync(join(root, "d"));
writeFileSync(join(root, "a.py"), "a");
writeFileSync(join(root, "d", "b.py"), "b");
const watcher = new WorkspaceWatcher(root, 100, new InotifyHub());
let got = [];
const sub = watcher.subscribe(() => true, (changes) => got.push(...changes));
const steps = {};
const step = (name, change) => {
  change();
  watcher.poll();
  steps[name] = got.map((c) => c.kind + " " + c.abs.slice(root.length + 1));
  got = [];
};
const a = join(root, "a.py");
const d = join(root, "d");
step("unreadable", () => chmodSync(a, 0));
step("readable again", () => chmodSync(a, 0o644));
step("still readable", () => chmodSync(a, 0o600));
step("a round trip between two looks", () => { chmodSync(a, 0); chmodSync(a, 0o644); });
step("a directory unreadable", () => chmodSync(d, 0));
step("a directory readable again", () => chmodSync(d, 0o755));
sub.close();
rmSync(root, { recursive: true, force: true });
console.log(JSON.stringify({ uid: process.getuid(), steps }));
`;

test("readability turning is deletion and creation; a mode change that keeps it is a change", () => {
  const script = join(home, "readable.ts");
  writeFileSync(script, SCRIPT);
  const run = Bun.spawnSync([...unprivilegedPrefix(), process.execPath, script], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
    stdout: "pipe",
    stderr: "pipe",
  });
  if (run.exitCode !== 0) throw new Error(`the child failed: ${run.stderr.toString()}`);
  const out = JSON.parse(run.stdout.toString()) as { uid: number; steps: unknown };
  expect(out.uid).not.toBe(0);
  expect(out.steps).toEqual({
    unreadable: ["deleted a.py"],
    "readable again": ["created a.py"],
    "still readable": ["changed a.py"],
    "a round trip between two looks": ["changed a.py"],
    "a directory unreadable": ["deleted d/b.py"],
    "a directory readable again": ["created d/b.py"],
  });
});
