/** SPEC §2.1: the extension scan never walks ignored or vendored trees and stays bounded. */
import { afterAll, describe, expect, test } from "bun:test";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scanExtensions } from "../../../src/discovery/scan.ts";
import { type FileMap, removeTempDirs, tempDir } from "../../support/temp-dirs.ts";

afterAll(removeTempDirs);

const tree = (files: FileMap) => tempDir("theodolite-scan-", files);

describe("scanExtensions", () => {
  test("only the project's own files count: vendored, dot, build and gitignored trees are not entered", async () => {
    const root = tree([
      "src/main.ts",
      "src/deep/er/util.c",
      "README.md",
      "node_modules/pkg/index.rs",
      "pkg/node_modules/inner/x.go",
      ".git/objects/ab.py",
      ".venv/lib/site.lua",
      "target/debug/out.hs",
      "build/gen.cpp",
      "generated/api.java",
      "notes/ignored.kt",
      ".gitignore",
    ]);
    writeFileSync(join(root, ".gitignore"), "generated/\n*.kt\n");
    const scan = await scanExtensions(root);
    expect([...scan.extensions].sort()).toEqual(["c", "md", "ts"]);
    expect(scan.truncated).toBe(false);
    // entries looked at: the root's 11, then src (2), src/deep (1), src/deep/er (1),
    // notes (1) and pkg (1) — nothing inside the skipped trees
    expect(scan.entries).toBe(17);
  });

  test("bounded: stops after maxEntries, shallow entries first, the same answer every time", async () => {
    const root = tree([
      "a.py",
      ...Array.from({ length: 30 }, (_, i) => `deep/f${String(i).padStart(2, "0")}.rs`),
      "z.go",
    ]);
    const first = await scanExtensions(root, 5);
    expect(first.truncated).toBe(true);
    expect(first.entries).toBe(5);
    expect([...first.extensions].sort()).toEqual(["go", "py", "rs"]);
    const again = await scanExtensions(root, 5);
    expect([...again.extensions].sort()).toEqual([...first.extensions].sort());
  });

  test("`enough` ends the walk early", async () => {
    const root = tree(["a.c", "b/c/d.ts", "e.py"]);
    const scan = await scanExtensions(root, 100, (exts) => exts.has("c"));
    expect([...scan.extensions]).toEqual(["c"]);
  });

  test("symlinked directories are not followed", async () => {
    const root = tree(["src/a.ts"]);
    const elsewhere = tree(["x.rs"]);
    symlinkSync(elsewhere, join(root, "linked"));
    const scan = await scanExtensions(root);
    expect([...scan.extensions]).toEqual(["ts"]);
  });

  test("file names, and the #! interpreters of files without an extension, beneath the root", async () => {
    const root = tree(["infra/Dockerfile", "scripts/release", "scripts/tool", "bin/data", "a.sh"]);
    writeFileSync(join(root, "scripts/release"), "#!/usr/bin/env bash\necho hi\n");
    writeFileSync(join(root, "scripts/tool"), "#!/usr/bin/python3 -u\n");
    writeFileSync(join(root, "bin/data"), "no shebang\n");
    const scan = await scanExtensions(root);
    expect([...scan.names].sort()).toEqual(["Dockerfile", "a.sh", "data", "release", "tool"]);
    expect([...scan.interpreters].sort()).toEqual(["bash", "python3"]);
    expect([...scan.extensions]).toEqual(["sh"]);
  });
});
