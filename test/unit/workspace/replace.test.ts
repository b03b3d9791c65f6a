/**
 * Atomic replacement inside a directory handle (SPEC §7.4, §8.1): the temp file never
 * stays, and a failure is reported as what failed — the cleanup after it never hides it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { closeSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OPEN, openAt } from "../../../src/ffi/syscalls.ts";
import { errnoCode } from "../../../src/workspace/file-errors.ts";
import {
  discardReplacement,
  prepareReplacement,
  sideNames,
  swapBack,
  swapIn,
} from "../../../src/workspace/replace.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";

afterAll(removeTempDirs);

function withDir(fn: (dir: string, dirFd: number) => void): void {
  const dir = tempDir("theodolite-replace-");
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

const NOTHING = { flags: 0, xattrs: new Map<string, Uint8Array>() };

describe("replacement", () => {
  for (const exchange of [true, false]) {
    test(`prepare then swap in (${exchange ? "exchange" : "link and rename"}): the new content under the name, the old file under another until removed`, () => {
      withDir((dir, dirFd) => {
        writeFileSync(join(dir, "a.txt"), "old");
        const { tmp, bak } = sideNames("a.txt");
        prepareReplacement(
          dirFd,
          tmp,
          [Buffer.from("new")],
          lstatSync(join(dir, "a.txt")),
          NOTHING,
        );
        expect(readdirSync(dir).sort()).toEqual([tmp, "a.txt"].sort());
        const swap = swapIn(dirFd, tmp, "a.txt", bak, exchange);
        expect(swap.old).toBe(exchange ? tmp : bak);
        expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("new");
        expect(readFileSync(join(dir, swap.old), "utf8")).toBe("old");
        swapBack(dirFd, swap, "a.txt");
        expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("old");
        for (const side of [tmp, bak]) discardReplacement(dirFd, side);
        expect(readdirSync(dir)).toEqual(["a.txt"]);
      });
    });
  }

  test("a failed swap is reported as itself, and the target is untouched", () => {
    withDir((dir, dirFd) => {
      writeFileSync(join(dir, "a.txt"), "old");
      const err = errorOf(() => swapIn(dirFd, "no-such-temp", "a.txt", ".bak", true));
      expect(errnoCode(err)).toBe("ENOENT");
      expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("old");
      expect(readdirSync(dir)).toEqual(["a.txt"]);
    });
  });

  test("discarding: true once the entry is gone (or never was), false when it cannot be removed", () => {
    withDir((dir, dirFd) => {
      writeFileSync(join(dir, "t"), "");
      mkdirSync(join(dir, "d"));
      expect(discardReplacement(dirFd, "t")).toBe(true);
      expect(discardReplacement(dirFd, "t")).toBe(true);
      expect(discardReplacement(dirFd, "d")).toBe(false);
    });
  });
});
