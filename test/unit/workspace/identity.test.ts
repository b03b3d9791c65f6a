/**
 * The look at an open document (SPEC §5.1): one lstat, or none while the watcher vouches
 * for the file. A fake feed stands for the watcher: which watch covers a path, and a
 * count of ended watches.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { linkSync, lstatSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { identityOf } from "../../../src/workspace/confined.ts";
import {
  type ChangeFeed,
  currentIdentity,
  type KnownFile,
  sameIdentity,
  WatchVouchers,
} from "../../../src/workspace/identity.ts";
import { removeTempTrees, tempTree } from "../../support/temp-tree.ts";

afterAll(removeTempTrees);

class FakeFeed implements ChangeFeed {
  readonly covered = new Map<string, number>();
  ended = 0;
  poll(): void {}
  coverage(abs: string): number | undefined {
    return this.covered.get(abs);
  }
  losses(): number {
    return this.ended;
  }
}

/** A file as a session holds it: read now, identity taken from the disk. */
function known(abs: string): KnownFile & { identity: ReturnType<typeof identityOf> } {
  return { abs, identity: identityOf(lstatSync(abs)) };
}

function setup(name = "a.ts") {
  const root = tempTree({ [name]: "const a = 1;\n" }, "theodolite-identity-");
  const abs = join(root, name);
  const feed = new FakeFeed();
  let current: ChangeFeed | undefined = feed;
  const vouchers = new WatchVouchers(() => current);
  return {
    root,
    abs,
    feed,
    vouchers,
    setFeed: (f: ChangeFeed | undefined) => {
      current = f;
    },
  };
}

describe("currentIdentity", () => {
  test("a regular file's identity; null for a missing path and for a link", () => {
    const { root, abs } = setup();
    expect(sameIdentity(currentIdentity(abs), identityOf(lstatSync(abs)))).toBe(true);
    expect(currentIdentity(join(root, "missing.ts"))).toBeNull();
    const link = join(root, "link.ts");
    symlinkSync(abs, link);
    expect(currentIdentity(link)).toBeNull();
  });
});

describe("WatchVouchers", () => {
  test("a covered file found unchanged is vouched for without another look", () => {
    const { abs, feed, vouchers } = setup();
    feed.covered.set(abs, 7);
    const file = known(abs);
    expect(vouchers.vouches(file)).toBe(false); // never looked at
    expect(vouchers.unchanged(file)).toBe(true);
    expect(vouchers.vouches(file)).toBe(true);
    // the vouch does not look at the disk: the watcher's events are the caller's to check
    writeFileSync(abs, "const a = 22;\n");
    expect(vouchers.vouches(file)).toBe(true);
    // a look does, and withdraws the vouch
    expect(vouchers.unchanged(file)).toBe(false);
    expect(vouchers.vouches(file)).toBe(false);
  });

  test("no watch covering the file when it was looked at: looked at every time", () => {
    const { abs, feed, vouchers } = setup();
    const file = known(abs);
    expect(vouchers.unchanged(file)).toBe(true);
    expect(vouchers.vouches(file)).toBe(false);
    // a watch that appeared after the look vouches for nothing before the next look
    feed.covered.set(abs, 3);
    expect(vouchers.vouches(file)).toBe(false);
    expect(vouchers.unchanged(file)).toBe(true);
    expect(vouchers.vouches(file)).toBe(true);
  });

  test("no watcher at all: looked at every time", () => {
    const { abs, vouchers, setFeed } = setup();
    setFeed(undefined);
    const file = known(abs);
    expect(vouchers.unchanged(file)).toBe(true);
    expect(vouchers.vouches(file)).toBe(false);
  });

  test("a file with another hard link is never vouched for (a write through the other link is reported in its directory only)", () => {
    const { root, abs, feed, vouchers } = setup();
    linkSync(abs, join(root, "other-name.ts"));
    feed.covered.set(abs, 1);
    const file = known(abs);
    expect(vouchers.unchanged(file)).toBe(true);
    expect(vouchers.vouches(file)).toBe(false);
  });

  test("a changed file is not unchanged, and a file replaced by another is not either", () => {
    const { root, abs, feed, vouchers } = setup();
    feed.covered.set(abs, 1);
    const file = known(abs);
    writeFileSync(abs, "const a = 333;\n");
    expect(vouchers.unchanged(file)).toBe(false);
    const again = known(abs);
    writeFileSync(join(root, "b.ts"), "const a = 444;\n");
    renameSync(join(root, "b.ts"), abs);
    expect(vouchers.unchanged(again)).toBe(false);
    expect(vouchers.vouches(again)).toBe(false);
  });

  test("new content read for the file (a new identity object) needs a new look", () => {
    const { abs, feed, vouchers } = setup();
    feed.covered.set(abs, 1);
    const file: { abs: string; identity: ReturnType<typeof identityOf> } = known(abs);
    expect(vouchers.unchanged(file)).toBe(true);
    file.identity = { ...file.identity };
    expect(vouchers.vouches(file)).toBe(false);
  });

  test("a watch that ended withdraws the vouch; another watch's end does not", () => {
    const { abs, feed, vouchers } = setup();
    feed.covered.set(abs, 5);
    const file = known(abs);
    expect(vouchers.unchanged(file)).toBe(true);
    feed.ended += 1; // some other directory's watch ended: this file's is still number 5
    expect(vouchers.vouches(file)).toBe(true);
    feed.ended += 1;
    feed.covered.set(abs, 9); // its directory is watched anew: changes in between were lost
    expect(vouchers.vouches(file)).toBe(false);
    expect(vouchers.vouches(file)).toBe(false);
  });

  test("a watcher other than the one that vouched vouches for nothing", () => {
    const { abs, feed, vouchers, setFeed } = setup();
    feed.covered.set(abs, 4);
    const file = known(abs);
    expect(vouchers.unchanged(file)).toBe(true);
    const other = new FakeFeed();
    other.covered.set(abs, 4);
    setFeed(other);
    expect(vouchers.vouches(file)).toBe(false);
  });
});
