/** SPEC §3.3, §8.1: the sorted, bounded, confined walk for workspace files. */
import { afterAll, describe, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emptyReport, workspaceFiles } from "../../../src/workspace/scan.ts";
import { type FileMap, removeTempDirs, tempDir } from "../../support/temp-dirs.ts";

afterAll(removeTempDirs);

const tree = (files: FileMap) => tempDir("theodolite-scan-", files);

async function all(root: string, maxEntries = 1000) {
  const report = emptyReport();
  const files: string[] = [];
  for await (const f of workspaceFiles(root, { maxEntries }, report)) files.push(f);
  return { files, report };
}

describe("workspaceFiles (SPEC §3.3, §8.1)", () => {
  test("regular files in the order of `<` on their paths; dot entries, node_modules and links left out", async () => {
    const outside = tree({ "secret.c": "" });
    const root = tree({
      "b.c": "",
      "a/b.c": "",
      "a.c": "",
      "a-b.c": "",
      "a/z/y.c": "",
      ".hidden/x.c": "",
      ".dot.c": "",
      "node_modules/m/x.c": "",
      "src/node_modules/x.c": "",
    });
    symlinkSync(join(root, "b.c"), join(root, "alias.c"));
    symlinkSync(outside, join(root, "linked"));
    expect(Bun.spawnSync(["mkfifo", join(root, "pipe.c")]).success).toBe(true);
    const { files, report } = await all(root);
    expect(files).toEqual(["a-b.c", "a.c", "a/b.c", "a/z/y.c", "b.c"]);
    expect([...files].sort()).toEqual(files);
    expect(report.truncated).toBe(false);
  });

  test("bounded: the walk stops at maxEntries and says so", async () => {
    const root = tree(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}.c`, ""])));
    const { files, report } = await all(root, 10);
    expect(files).toHaveLength(10);
    expect(report).toEqual({ entries: 10, truncated: true, unreadableDirs: 0 });
  });

  test("a root that cannot be opened yields nothing and counts it", async () => {
    const { files, report } = await all(join(tmpdir(), "theodolite-no-such-root"));
    expect(files).toEqual([]);
    expect(report.unreadableDirs).toBe(1);
  });
});
