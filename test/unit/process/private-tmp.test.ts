/**
 * private-tmp.ts on its own: where the directory is made, its mode, what happens when it
 * cannot be, a removal that takes links, never what they name, and the directories of dead
 * bridges of the same pid namespace removed when the next one is made.
 */
import { afterEach, describe, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import {
  leftBehind,
  makePrivateTmp,
  ownerOf,
  PRIVATE_TMP_PREFIX,
  removePrivateTmp,
  type TmpOwner,
  thisProcessAsOwner,
} from "../../../src/process/private-tmp.ts";
import { readProc } from "../../../src/process/proctree.ts";
import { removeTempDir, tempDir } from "../../support/temp-dirs.ts";

/** This process, alive, in a namespace 7 that does not exist: only these tests sweep there. */
const OWNER: TmpOwner = { ...thisProcessAsOwner(), pidNs: 7 };

const dirs: string[] = [];
function scratch(): string {
  const d = tempDir("theodolite-ptmp-");
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) {
    chmodSync(d, 0o700);
    removeTempDir(d);
  }
});

describe("makePrivateTmp", () => {
  test("a new 0700 directory named for its owner beneath the base; two are never the same", () => {
    const base = scratch();
    const a = makePrivateTmp(base, OWNER);
    const b = makePrivateTmp(base, OWNER);
    if (!("dir" in a) || !("dir" in b)) throw new Error("expected directories");
    expect(dirname(a.dir)).toBe(base);
    const tag = `${process.pid}-${OWNER.start}-7-`;
    expect(a.dir.startsWith(join(base, `${PRIVATE_TMP_PREFIX}${tag}`))).toBe(true);
    expect(statSync(a.dir).mode & 0o777).toBe(0o700);
    expect(a.dir).not.toBe(b.dir);
  });

  test("no base, or a relative one: beneath /tmp", () => {
    for (const base of [undefined, "relative/dir"]) {
      const made = makePrivateTmp(base, OWNER);
      if (!("dir" in made)) throw new Error(made.failed);
      dirs.push(made.dir);
      expect(dirname(made.dir)).toBe("/tmp");
    }
  });

  test("a base that does not exist: the reason, and nothing made", () => {
    const base = join(scratch(), "missing");
    const made = makePrivateTmp(base, OWNER);
    expect("failed" in made && made.failed).toContain(base);
    expect(existsSync(base)).toBe(false);
  });
});

describe("what dead bridges left", () => {
  test("ownerOf reads the names the bridge makes, and no other", () => {
    expect(ownerOf(`${PRIVATE_TMP_PREFIX}12-345-4026531836-aB3xYz`)).toEqual({
      pid: 12,
      start: 345,
      pidNs: 4026531836,
    });
    for (const name of [
      `${PRIVATE_TMP_PREFIX}12-aB3xYz`, // an older bridge's: whose namespace is unknown
      `${PRIVATE_TMP_PREFIX}12-345-678-aB3xYz-more`,
      "theodolite-server-x-1-2-aB3xYz",
      "other-12-345-678-aB3xYz",
    ]) {
      expect(ownerOf(name)).toBeNull();
    }
  });

  test("leftBehind: of this namespace, owned by no live bridge", () => {
    const names = [
      `${PRIVATE_TMP_PREFIX}1-10-7-aaaaaa`, // dead, this namespace
      `${PRIVATE_TMP_PREFIX}2-20-7-bbbbbb`, // alive
      `${PRIVATE_TMP_PREFIX}1-10-8-cccccc`, // another namespace: its pids are not ours
      "unrelated",
    ];
    const alive = (pid: number, start: number) => pid === 2 && start === 20;
    expect(leftBehind(names, 7, alive)).toEqual([`${PRIVATE_TMP_PREFIX}1-10-7-aaaaaa`]);
  });

  test("making one removes the directories of dead bridges of its namespace", () => {
    const base = scratch();
    const me = readProc(process.pid);
    if (me === null) throw new Error("no /proc");
    // a pid with another start time is another process: that bridge is gone
    const dead = join(base, `${PRIVATE_TMP_PREFIX}${process.pid}-${me.startTime + 1}-7-dddddd`);
    const live = join(base, `${PRIVATE_TMP_PREFIX}${process.pid}-${me.startTime}-7-llllll`);
    const foreign = join(base, `${PRIVATE_TMP_PREFIX}${process.pid}-${me.startTime + 1}-8-ffffff`);
    for (const d of [dead, live, foreign]) mkdirSync(d);
    writeFileSync(join(dead, "left.tmp"), "left");
    const made = makePrivateTmp(base, OWNER);
    if (!("dir" in made)) throw new Error(made.failed);
    expect([existsSync(dead), existsSync(live), existsSync(foreign)]).toEqual([false, true, true]);
  });
});

describe("removePrivateTmp", () => {
  test("the directory and its tree go; files that links inside named stay", () => {
    const outside = scratch();
    writeFileSync(join(outside, "keep"), "keep");
    const made = makePrivateTmp(scratch(), OWNER);
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
