/**
 * The one way a test makes a directory under the OS temp directory. Each is a realpath (the
 * temp directory itself may sit behind a symlink), optionally holding a file map, and kept
 * in a list: `removeTempDirs` in the caller's `afterAll` removes every one the file made,
 * `removeTempDir` one of them early (a long run's copies).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** relative path → content; a list of paths gets "x" each */
export type FileMap = Record<string, string | Uint8Array> | string[];

const dirs: string[] = [];

/** A new directory named `prefix…`, holding `files`. */
export function tempDir(prefix = "theodolite-test-", files: FileMap = []): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  dirs.push(root);
  const entries = Array.isArray(files)
    ? files.map((f) => [f, "x"] as const)
    : Object.entries(files);
  for (const [rel, body] of entries) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
  return root;
}

/** Remove one directory now, dropping it from the list. */
export function removeTempDir(dir: string): void {
  const at = dirs.indexOf(dir);
  if (at !== -1) dirs.splice(at, 1);
  rmSync(dir, { recursive: true, force: true });
}

export function removeTempDirs(): void {
  for (const root of dirs.splice(0)) rmSync(root, { recursive: true, force: true });
}

/**
 * A workspace `ws` beside a directory `outside`, with links leading out of the workspace
 * (`escape` → a file outside, `escdir` → the outside directory, `dangle` → a missing file
 * outside), one staying inside (`inlink` → `a.txt`), and `base/wslink` → `ws`.
 */
export function confinementTree(): { base: string; ws: string; outside: string } {
  const base = tempDir("theodolite-tree-", {
    "ws/a.txt": "abc",
    "ws/sub/b.txt": "b",
    "outside/secret.txt": "secret",
  });
  const ws = join(base, "ws");
  const outside = join(base, "outside");
  symlinkSync(join(outside, "secret.txt"), join(ws, "escape"));
  symlinkSync(outside, join(ws, "escdir"));
  symlinkSync(join(outside, "missing"), join(ws, "dangle"));
  symlinkSync("a.txt", join(ws, "inlink"));
  symlinkSync(ws, join(base, "wslink"));
  return { base, ws, outside };
}
