import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findWarmupFile } from "../../src/session/warmup.ts";
import { emptyReport, workspaceFiles } from "../../src/workspace/scan.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tree(files: Record<string, string | Uint8Array>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "theodolite-scan-")));
  dirs.push(root);
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
  return root;
}

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

describe("findWarmupFile (SPEC §3.3)", () => {
  test("matching files that cannot be served are skipped; the next usable one is opened", async () => {
    const root = tree({
      "a_big.c": "x".repeat(200),
      "b_latin1.c": new Uint8Array([0x69, 0xe9, 0x0a]),
      "c_good.c": "int main(void) { return 0; }\n",
      "d_later.c": "",
      "notes.txt": "",
    });
    const { outcome, opened } = await findWarmupFile(root, "**/*.c", 100);
    expect(opened?.rel).toBe("c_good.c");
    expect(outcome).toMatchObject({
      pattern: "**/*.c",
      file: "c_good.c",
      skipped: [
        { file: "a_big.c", reason: "FileTooLarge" },
        { file: "b_latin1.c", reason: "NotUtf8" },
      ],
    });
  });

  test("nothing usable: no file, every refusal listed, no error", async () => {
    const root = tree({ "a.c": "x".repeat(200) });
    const { outcome, opened } = await findWarmupFile(root, "**/*.c", 100);
    expect(opened).toBeUndefined();
    expect(outcome.file).toBeNull();
    expect(outcome.skipped).toEqual([{ file: "a.c", reason: "FileTooLarge" }]);
  });
});
