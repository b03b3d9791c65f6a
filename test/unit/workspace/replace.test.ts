/**
 * Atomic replacement inside a directory handle (SPEC §7.4, §8.1): the temp file never
 * stays, and a failure is reported as what failed — the cleanup after it never hides it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import {
  closeSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OPEN, openAt } from "../../../src/ffi/syscalls.ts";
import { errnoCode } from "../../../src/workspace/file-errors.ts";
import { commitReplacement, prepareReplacement } from "../../../src/workspace/replace.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function withDir(fn: (dir: string, dirFd: number) => void): void {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "theodolite-replace-")));
  dirs.push(dir);
  const dirFd = openAt(null, dir, OPEN.dirHandle);
  try {
    fn(dir, dirFd);
  } finally {
    closeSync(dirFd);
  }
}

function errorOf(fn: () => void): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected an error");
}

describe("replacement", () => {
  test("prepare then commit: the new content under the old name, no temp file left", () => {
    withDir((dir, dirFd) => {
      writeFileSync(join(dir, "a.txt"), "old");
      const tmp = prepareReplacement(
        dirFd,
        "a.txt",
        Buffer.from("new"),
        lstatSync(join(dir, "a.txt")),
      );
      expect(readdirSync(dir).sort()).toEqual([tmp, "a.txt"].sort());
      commitReplacement(dirFd, tmp, "a.txt");
      expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("new");
      expect(readdirSync(dir)).toEqual(["a.txt"]);
    });
  });

  test("a failed rename is reported as itself, even when the cleanup fails too", () => {
    withDir((dir, dirFd) => {
      writeFileSync(join(dir, "a.txt"), "old");
      // a directory cannot be renamed over a file (ENOTDIR), nor unlinked as a file (EISDIR)
      mkdirSync(join(dir, "not-a-temp"));
      const err = errorOf(() => commitReplacement(dirFd, "not-a-temp", "a.txt"));
      expect(errnoCode(err)).toBe("ENOTDIR");
      expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("old");
    });
  });
});
