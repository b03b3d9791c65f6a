/**
 * Directory trees under the OS temp directory, for unit tests that read a real file system.
 * Each root is a realpath (the temp directory itself may sit behind a symlink); the caller
 * removes them with `removeTempTrees()` in its `afterAll`.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const roots: string[] = [];

/** A new tree holding `files` (relative path → content; a list of paths gets "x" each). */
export function tempTree(
  files: Record<string, string | Uint8Array> | string[],
  prefix = "theodolite-tree-",
): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  roots.push(root);
  const entries = Array.isArray(files)
    ? files.map((f) => [f, "x"] as const)
    : Object.entries(files);
  for (const [rel, body] of entries) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
  return root;
}

export function removeTempTrees(): void {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
}

/**
 * A workspace `ws` beside a directory `outside`, with links leading out of the workspace
 * (`escape` → a file outside, `escdir` → the outside directory, `dangle` → a missing file
 * outside), one staying inside (`inlink` → `a.txt`), and `base/wslink` → `ws`.
 */
export function confinementTree(): { base: string; ws: string; outside: string } {
  const base = tempTree({ "ws/a.txt": "abc", "ws/sub/b.txt": "b", "outside/secret.txt": "secret" });
  const ws = join(base, "ws");
  const outside = join(base, "outside");
  symlinkSync(join(outside, "secret.txt"), join(ws, "escape"));
  symlinkSync(outside, join(ws, "escdir"));
  symlinkSync(join(outside, "missing"), join(ws, "dangle"));
  symlinkSync("a.txt", join(ws, "inlink"));
  symlinkSync(ws, join(base, "wslink"));
  return { base, ws, outside };
}
