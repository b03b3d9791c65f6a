import { describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  chooseSocketDir,
  type DirFacts,
  notPrivate,
  privateSocketDir,
} from "../../../src/daemon/socket-dir.ts";
import { isBridgeError } from "../../../src/errors.ts";

const PRIVATE: DirFacts = { isDirectory: true, isSymbolicLink: false, uid: 1000, mode: 0o40700 };

describe("notPrivate (SPEC §2.2)", () => {
  test.each([
    [PRIVATE, null],
    [{ ...PRIVATE, mode: 0o40500 }, null],
    [{ ...PRIVATE, mode: 0o40750 }, "has mode 0750, not 0700"],
    [{ ...PRIVATE, mode: 0o40701 }, "has mode 0701, not 0700"],
    [{ ...PRIVATE, uid: 0 }, "is owned by uid 0, not 1000"],
    [{ ...PRIVATE, isSymbolicLink: true, isDirectory: false }, "is a symbolic link"],
    [{ ...PRIVATE, isDirectory: false }, "is not a directory"],
  ])("%o → %p", (facts, why) => {
    expect(notPrivate(facts, 1000)).toBe(why);
  });
});

describe("chooseSocketDir", () => {
  test("the runtime directory when it is absolute and private, else the temp dir's", () => {
    const env = { XDG_RUNTIME_DIR: "/run/user/1000" };
    expect(chooseSocketDir(env, 1000, "/tmp", PRIVATE)).toBe("/run/user/1000/theodolite");
    expect(chooseSocketDir(env, 1000, "/tmp", { ...PRIVATE, mode: 0o40755 })).toBe(
      "/tmp/theodolite-1000",
    );
    expect(chooseSocketDir(env, 1000, "/tmp", null)).toBe("/tmp/theodolite-1000");
    expect(chooseSocketDir({ XDG_RUNTIME_DIR: "run" }, 1000, "/tmp", PRIVATE)).toBe(
      "/tmp/theodolite-1000",
    );
    expect(chooseSocketDir({}, 1000, "/var/tmp", PRIVATE)).toBe("/var/tmp/theodolite-1000");
  });
});

describe("privateSocketDir", () => {
  const uid = process.geteuid?.() ?? 0;
  test("creates the directory 0700 and accepts it again; refuses a wider mode or a link", () => {
    const tmp = mkdtempSync(join(tmpdir(), "theodolite-sockdir-"));
    try {
      const dir = privateSocketDir({}, uid, tmp);
      expect(dir).toBe(join(tmp, `theodolite-${uid}`));
      expect(privateSocketDir({}, uid, tmp)).toBe(dir);
      chmodSync(dir, 0o770);
      expect(() => privateSocketDir({}, uid, tmp)).toThrow("has mode 0770");
      rmSync(dir, { recursive: true });
      symlinkSync(tmp, dir);
      let thrown: unknown;
      try {
        privateSocketDir({}, uid, tmp);
      } catch (err) {
        thrown = err;
      }
      expect(isBridgeError(thrown, "ConfigInvalid")).toBe(true);
      expect(String((thrown as Error).message)).toContain("symbolic link");
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
