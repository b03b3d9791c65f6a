import { describe, expect, test } from "bun:test";
import { type BridgeUser, writeRefusal } from "../../../src/apply/writable.ts";

const alice: BridgeUser = { uid: 1000, gid: 1000, groups: [1000, 50] };
const root: BridgeUser = { uid: 0, gid: 0, groups: [0] };
const file = (mode: number, uid = 1000, gid = 1000) => ({ mode: 0o100000 | mode, uid, gid });
const dir = (mode: number, uid = 1000, gid = 1000) => ({ mode: 0o040000 | mode, uid, gid });

describe("writeRefusal (SPEC §7.4: may the bridge replace this file)", () => {
  test("the owner with a writable file in a writable directory may", () => {
    expect(writeRefusal(file(0o644), dir(0o755), alice)).toBeUndefined();
    expect(writeRefusal(file(0o600), dir(0o700), alice)).toBeUndefined();
  });

  test("no write bit for the user's class is refused, whatever the other classes say", () => {
    expect(writeRefusal(file(0o444), dir(0o755), alice)).toContain("0444");
    expect(writeRefusal(file(0o466), dir(0o755), alice)).toContain("not writable");
  });

  test("a file owned by someone else is refused even when the mode lets anyone write", () => {
    expect(writeRefusal(file(0o666, 1001), dir(0o777), alice)).toContain("owned by uid 1001");
  });

  test("a group the user is not in would change: refused; a supplementary group is fine", () => {
    expect(writeRefusal(file(0o664, 1000, 70), dir(0o755), alice)).toContain("group 70");
    expect(writeRefusal(file(0o664, 1000, 50), dir(0o755), alice)).toBeUndefined();
  });

  test("a directory without write and search for the user is refused", () => {
    expect(writeRefusal(file(0o644), dir(0o555), alice)).toContain("directory");
    expect(writeRefusal(file(0o644), dir(0o775, 1001, 50), alice)).toBeUndefined();
    expect(writeRefusal(file(0o644), dir(0o755, 1001, 50), alice)).toContain("directory");
    expect(writeRefusal(file(0o644), dir(0o1777, 1001, 1001), alice)).toBeUndefined();
  });

  test("root: only a file with no write bit at all is read-only", () => {
    expect(writeRefusal(file(0o444, 1001, 1001), dir(0o555, 1001), root)).toContain("read-only");
    expect(writeRefusal(file(0o644, 1001, 1001), dir(0o555, 1001), root)).toBeUndefined();
    expect(writeRefusal(file(0o400, 0, 0), dir(0o755, 0, 0), root)).toContain("0400");
  });
});
