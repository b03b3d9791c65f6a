/**
 * SPEC §2.1 discovery, the parts that read the disk without running anything: the
 * extension scan never walks ignored or vendored trees and stays bounded; the workspace's
 * toolchain (node_modules/typescript as Node resolves it, node_modules/.bin, a venv).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gitignoreMatcher, skippedByName } from "../../src/discovery/ignore.ts";
import { scanExtensions } from "../../src/discovery/scan.ts";
import { workspaceToolchain } from "../../src/discovery/toolchain.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tree(files: string[]): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "theodolite-scan-")));
  dirs.push(root);
  for (const f of files) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), "x");
  }
  return root;
}

describe("what the scan never walks", () => {
  test.each([
    ["node_modules", true],
    [".git", true],
    [".venv", true],
    ["target", true],
    ["build", true],
    ["dist", true],
    ["cmake-build-debug", true],
    ["bazel-out", true],
    ["src", false],
    ["lib", false],
    ["builder", false],
  ])("%s skipped: %p", (name, skipped) => {
    expect(skippedByName(name)).toBe(skipped);
  });

  test("gitignore: plain, anchored, directory-only and glob patterns; comments and negations ignored", () => {
    const ignored = gitignoreMatcher(
      ["# comment", "", "generated", "/coverage", "tmp/", "*.log", "docs/api", "!keep.log"].join(
        "\n",
      ),
    );
    expect(ignored("generated", true)).toBe(true);
    expect(ignored("a/b/generated", true)).toBe(true);
    expect(ignored("coverage", true)).toBe(true);
    expect(ignored("src/coverage", true)).toBe(false); // anchored to the root
    expect(ignored("tmp", true)).toBe(true);
    expect(ignored("tmp", false)).toBe(false); // directories only
    expect(ignored("x/trace.log", false)).toBe(true);
    expect(ignored("keep.log", false)).toBe(true); // negation not honoured: skipped anyway
    expect(ignored("docs/api", true)).toBe(true);
    expect(ignored("src/docs/api", true)).toBe(false);
    expect(ignored("src/main.c", false)).toBe(false);
  });

  test("an empty or comment-only .gitignore ignores nothing", () => {
    expect(gitignoreMatcher("")("a", true)).toBe(false);
    expect(gitignoreMatcher("# x\n\n!y\n")("y", false)).toBe(false);
  });
});

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
});

describe("workspaceToolchain", () => {
  function typescriptPackage(at: string, version: string, files: string[]): void {
    const pkg = join(at, "node_modules", "typescript");
    mkdirSync(join(pkg, "lib"), { recursive: true });
    mkdirSync(join(pkg, "bin"), { recursive: true });
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "typescript", version }));
    for (const f of files) writeFileSync(join(pkg, f), "");
  }

  test("the nearest node_modules/typescript, as Node resolves it, with tsserver and tsc", () => {
    const top = tree(["x"]);
    typescriptPackage(top, "7.0.2", ["bin/tsc"]);
    const inner = join(top, "packages", "app");
    mkdirSync(join(inner, "node_modules", ".bin"), { recursive: true });
    typescriptPackage(inner, "5.9.3", ["lib/tsserver.js", "bin/tsc"]);
    const t = workspaceToolchain(inner);
    expect(t.typescript).toEqual({
      version: "5.9.3",
      major: 5,
      package: join(inner, "node_modules", "typescript"),
      tsserver: join(inner, "node_modules", "typescript", "lib", "tsserver.js"),
      tsc: join(inner, "node_modules", "typescript", "bin", "tsc"),
    });
    expect(t.bins[0]).toBe(join(inner, "node_modules", ".bin"));
    // a package without its own TypeScript gets the ancestor's (a hoisted monorepo)
    const sibling = join(top, "packages", "lib");
    mkdirSync(sibling, { recursive: true });
    const hoisted = workspaceToolchain(sibling).typescript;
    expect(hoisted?.version).toBe("7.0.2");
    expect(hoisted?.tsserver).toBeNull();
  });

  test("an unreadable package.json does not count; no TypeScript anywhere is null", () => {
    const root = tree(["node_modules/typescript/package.json"]);
    expect(workspaceToolchain(root).typescript).toBeNull();
  });

  test("a .venv (or venv) with bin/python is the workspace's interpreter", () => {
    const root = tree(["venv/bin/python3", "main.py"]);
    expect(workspaceToolchain(root).venv).toEqual({
      dir: join(root, "venv"),
      python: join(root, "venv", "bin", "python3"),
    });
    const none = tree(["main.py", ".venv/README"]);
    expect(workspaceToolchain(none).venv).toBeNull();
  });
});
