/**
 * private-tmp.ts on its own: where the directory is made, its mode, what happens when it
 * cannot be, and a removal that takes links, never what they name.
 */
import { afterEach, describe, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  makePrivateTmp,
  PRIVATE_TMP_PREFIX,
  removePrivateTmp,
} from "../../../src/process/private-tmp.ts";

const dirs: string[] = [];
function scratch(): string {
  const d = mkdtempSync(join(tmpdir(), "theodolite-ptmp-"));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) {
    chmodSync(d, 0o700);
    rmSync(d, { recursive: true, force: true });
  }
});

describe("makePrivateTmp", () => {
  test("a new 0700 directory named for its owner beneath the base; two are never the same", () => {
    const base = scratch();
    const a = makePrivateTmp(base, 4242);
    const b = makePrivateTmp(base, 4242);
    if (!("dir" in a) || !("dir" in b)) throw new Error("expected directories");
    expect(dirname(a.dir)).toBe(base);
    expect(a.dir.startsWith(join(base, `${PRIVATE_TMP_PREFIX}4242-`))).toBe(true);
    expect(statSync(a.dir).mode & 0o777).toBe(0o700);
    expect(a.dir).not.toBe(b.dir);
  });

  test("no base, or a relative one: beneath /tmp", () => {
    for (const base of [undefined, "relative/dir"]) {
      const made = makePrivateTmp(base, 7);
      if (!("dir" in made)) throw new Error(made.failed);
      dirs.push(made.dir);
      expect(dirname(made.dir)).toBe("/tmp");
    }
  });

  test("a base that does not exist: the reason, and nothing made", () => {
    const base = join(scratch(), "missing");
    const made = makePrivateTmp(base, 7);
    expect("failed" in made && made.failed).toContain(base);
    expect(existsSync(base)).toBe(false);
  });
});

describe("removePrivateTmp", () => {
  test("the directory and its tree go; files that links inside named stay", () => {
    const outside = scratch();
    writeFileSync(join(outside, "keep"), "keep");
    const made = makePrivateTmp(scratch(), 1);
    if (!("dir" in made)) throw new Error(made.failed);
    symlinkSync(outside, join(made.dir, "dir-link"));
    symlinkSync(join(outside, "keep"), join(made.dir, "file-link"));
    writeFileSync(join(made.dir, "own"), "own");
    expect(removePrivateTmp(made.dir)).toBeUndefined();
    expect(existsSync(made.dir)).toBe(false);
    expect(readFileSync(join(outside, "keep"), "utf8")).toBe("keep");
  });

  test("a link in the directory's place is removed, not followed", () => {
    const outside = scratch();
    writeFileSync(join(outside, "keep"), "keep");
    const place = join(scratch(), `${PRIVATE_TMP_PREFIX}1-swapped`);
    symlinkSync(outside, place);
    expect(removePrivateTmp(place)).toBeUndefined();
    expect(existsSync(place)).toBe(false);
    expect(readFileSync(join(outside, "keep"), "utf8")).toBe("keep");
  });

  test("already gone: nothing to say", () => {
    expect(removePrivateTmp(join(scratch(), "never-made"))).toBeUndefined();
  });
});
