/**
 * Where apply records live (SPEC §7.4): the configured directory alone, else the user's
 * state directory with the temp directory behind it; a directory others may enter is never
 * used; a home the bridge cannot write falls back to the next.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ApplyJournal, notPrivate, stateDirectories } from "../../../src/apply/journal.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";

afterEach(removeTempDirs);

describe("stateDirectories", () => {
  test("configured: that one alone", () => {
    expect(stateDirectories("/srv/state", { HOME: "/home/a" }, "/tmp", 7)).toEqual(["/srv/state"]);
  });
  test("XDG_STATE_HOME before HOME, the temp directory last", () => {
    const env = { XDG_STATE_HOME: "/x/state", HOME: "/home/a" };
    expect(stateDirectories(null, env, "/tmp", 7)).toEqual([
      "/x/state/theodolite",
      "/tmp/theodolite-7",
    ]);
    expect(stateDirectories(null, { HOME: "/home/a" }, "/tmp", 7)).toEqual([
      "/home/a/.local/state/theodolite",
      "/tmp/theodolite-7",
    ]);
  });
  test("a home that does not exist is never created: the temp directory serves", () => {
    const exists = (d: string) => d !== "/nonexistent/x";
    expect(stateDirectories(null, { HOME: "/nonexistent/x" }, "/tmp", 7, exists)).toEqual([
      "/tmp/theodolite-7",
    ]);
  });
  test("relative or missing values are not used", () => {
    expect(stateDirectories(null, { XDG_STATE_HOME: "rel", HOME: "" }, "/tmp", 0)).toEqual([
      "/tmp/theodolite-0",
    ]);
  });
});

describe("notPrivate", () => {
  const dir = (mode: number, uid = 1000) => ({
    isDirectory: () => true,
    isSymbolicLink: () => false,
    uid,
    mode: 0o40000 | mode,
  });
  test("0700 of the user: private", () => expect(notPrivate(dir(0o700), 1000)).toBeUndefined());
  test("group or others may enter: refused", () => {
    expect(notPrivate(dir(0o750), 1000)).toContain("others may enter");
    expect(notPrivate(dir(0o701), 1000)).toContain("others may enter");
  });
  test("another owner: refused", () =>
    expect(notPrivate(dir(0o700, 0), 1000)).toContain("owned by uid 0"));
  test("a link or a file: refused", () => {
    const link = { ...dir(0o700), isSymbolicLink: () => true };
    expect(notPrivate(link, 1000)).toContain("not a directory");
  });
});

describe("ApplyJournal.begin", () => {
  const entry = { dir: "", name: "a.txt", tmp: ".a.tmp", bak: ".a.old", old: "0", new: "1" };

  test("a home that cannot be made falls back to the next directory, made 0700", () => {
    const base = tempDir("theodolite-journal-", { "not-a-dir": "x" });
    const fallback = join(base, "fallback");
    const journal = new ApplyJournal([join(base, "not-a-dir", "state"), fallback]);
    const record = journal.begin("/some/root", [entry]);
    expect(readdirSync(join(fallback, "applies")).length).toBe(1);
    expect(statSync(join(fallback, "applies")).mode & 0o777).toBe(0o700);
    record.end();
    expect(readdirSync(join(fallback, "applies"))).toEqual([]);
  });

  test("a base others may change (a temp directory made by another user) is refused", () => {
    const base = tempDir("theodolite-journal-", {});
    chmodSync(base, 0o777);
    expect(() => new ApplyJournal([base]).begin("/r", [entry])).toThrow("others may change it");
  });

  test("a records directory inside the workspace is refused", () => {
    const root = tempDir("theodolite-journal-root-", {});
    const journal = new ApplyJournal([join(root, ".state")]);
    expect(() => journal.begin(root, [entry])).toThrow("inside the workspace");
    expect(readdirSync(root)).toEqual([]);
  });

  test("an existing records directory others may enter is refused, not fixed", () => {
    const base = tempDir("theodolite-journal-", {});
    mkdirSync(join(base, "applies"));
    chmodSync(join(base, "applies"), 0o777);
    writeFileSync(join(base, "marker"), "");
    expect(() => new ApplyJournal([base]).begin("/r", [entry])).toThrow("others may enter");
    expect(readdirSync(join(base, "applies"))).toEqual([]);
  });
});
