/**
 * Links inside the root (SPEC §5.2): a change is delivered under every path it has there —
 * its real one and each link's — links out of the root are never followed, loops are
 * bounded (`aliasesOf`, pure, and through the watcher on a real tree).
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { symlinkSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { aliasesOf, MAX_ALIASES } from "../../../src/workspace/watch-links.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";
import { closeWatchers, watch, write } from "../../support/watching.ts";

afterAll(removeTempDirs);
afterEach(closeWatchers);

const sorted = (pairs: [string, string][]) => [...pairs].sort();

describe("aliasesOf", () => {
  test("each link into a path's ancestors gives it one more path; chains through links too", () => {
    const links = new Map([
      ["/r/src/link", "/r/real"],
      ["/r/other", "/r/src"],
    ]);
    expect(aliasesOf("/r/real/x.ts", links)).toEqual(["/r/src/link/x.ts", "/r/other/link/x.ts"]);
    expect(aliasesOf("/r/unrelated.ts", links)).toEqual([]);
  });

  test("a link to an ancestor, or links into each other, never loop", () => {
    const links = new Map([
      ["/r/a/up", "/r"],
      ["/r/a/tob", "/r/b"],
      ["/r/b/toa", "/r/a"],
    ]);
    const out = aliasesOf("/r/a/x.ts", links);
    expect(out.length).toBeLessThanOrEqual(MAX_ALIASES);
    expect(new Set(out).size).toBe(out.length);
    expect(out).toContain("/r/a/up/a/x.ts");
  });
});

describe("links inside the root", () => {
  test("a change under a linked directory is delivered under the link's path too", () => {
    const root = tempDir("theodolite-tree-", { "real/x.ts": "1", "src/a.ts": "a" });
    symlinkSync("../real", join(root, "src/link"));
    const { poll, watcher } = watch(root);
    write(root, "real/x.ts", "2");
    expect(poll()).toEqual([
      ["changed", "real/x.ts"],
      ["changed", "src/link/x.ts"],
    ]);
    // written through the link: the kernel reports the real path, delivered under both
    write(root, "src/link/y.ts", "y");
    expect(poll()).toEqual([
      ["created", "real/y.ts"],
      ["created", "src/link/y.ts"],
    ]);
    expect(watcher.status().links).toEqual({ followed: 1, not_followed: 0 });
  });

  test("a link to a file; a link made or removed after the start; a link out of the root", () => {
    const outside = tempDir("theodolite-tree-", { "o.ts": "o" });
    const root = tempDir("theodolite-tree-", {
      "real/x.ts": "1",
      "real/sub/z.ts": "z",
      "lib/f.ts": "f",
    });
    symlinkSync("../lib/f.ts", join(root, "real/f-link.ts"));
    symlinkSync(outside, join(root, "out"));
    const { poll, watcher } = watch(root);
    write(root, "lib/f.ts", "f2");
    expect(poll()).toEqual([
      ["changed", "lib/f.ts"],
      ["changed", "real/f-link.ts"],
    ]);
    write(outside, "o.ts", "o2");
    expect(poll()).toEqual([]);
    // a new link: the files it makes known are created under it
    symlinkSync("real", join(root, "alias"));
    expect(sorted(poll())).toEqual([
      ["created", "alias"],
      ["created", "alias/f-link.ts"],
      ["created", "alias/sub/z.ts"],
      ["created", "alias/x.ts"],
    ]);
    write(root, "real/sub/z.ts", "z2");
    expect(poll()).toEqual([
      ["changed", "real/sub/z.ts"],
      ["changed", "alias/sub/z.ts"],
    ]);
    unlinkSync(join(root, "alias"));
    expect(sorted(poll())).toEqual([
      ["deleted", "alias"],
      ["deleted", "alias/f-link.ts"],
      ["deleted", "alias/sub/z.ts"],
      ["deleted", "alias/x.ts"],
    ]);
    expect(watcher.status().links.followed).toBe(1);
  });

  test("a link to its own ancestor, and two links into each other: bounded, no loop", () => {
    const root = tempDir("theodolite-tree-", { "a/x.ts": "1", "b/y.ts": "2" });
    symlinkSync("..", join(root, "a/up"));
    symlinkSync("../b", join(root, "a/tob"));
    symlinkSync("../a", join(root, "b/toa"));
    const { poll } = watch(root);
    write(root, "a/x.ts", "changed");
    const out = poll();
    expect(out[0]).toEqual(["changed", "a/x.ts"]);
    expect(out.length).toBeLessThanOrEqual(1 + MAX_ALIASES);
    expect(out.map(([, p]) => p)).toContain("a/up/a/x.ts");
    expect(out.map(([, p]) => p)).toContain("b/toa/x.ts");
  });
});
