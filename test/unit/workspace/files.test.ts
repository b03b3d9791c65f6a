/** SPEC §4.2, §8: which file a path means (realpath confinement), paths and URIs. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { realRoot, resolveWorkspaceFile, sha256Hex } from "../../../src/workspace/files.ts";
import { confinementTree, removeTempDirs } from "../../support/temp-dirs.ts";
import { thrown } from "../../support/thrown.ts";

let base = "";
let ws = "";
let outside = "";

beforeAll(() => {
  ({ base, ws, outside } = confinementTree());
});
afterAll(removeTempDirs);

describe("resolveWorkspaceFile", () => {
  test("relative, absolute and dotted paths inside the root", () => {
    const expected = { abs: join(ws, "a.txt"), rel: "a.txt" };
    expect(resolveWorkspaceFile(ws, "a.txt")).toEqual(expected);
    expect(resolveWorkspaceFile(ws, join(ws, "a.txt"))).toEqual(expected);
    expect(resolveWorkspaceFile(ws, "sub/../a.txt")).toEqual(expected);
    expect(resolveWorkspaceFile(ws, "./sub/b.txt")).toEqual({
      abs: join(ws, "sub", "b.txt"),
      rel: "sub/b.txt",
    });
  });

  test("a symlink staying inside resolves to its target", () => {
    expect(resolveWorkspaceFile(ws, "inlink")).toEqual({ abs: join(ws, "a.txt"), rel: "a.txt" });
  });

  test("a root reached through a symlink confines to its real path", () => {
    const link = join(base, "wslink");
    expect(resolveWorkspaceFile(realRoot(link), "a.txt").rel).toBe("a.txt");
    expect(resolveWorkspaceFile(realRoot(link), join(link, "sub", "b.txt")).rel).toBe("sub/b.txt");
  });

  test("`..` escape", () => {
    const err = thrown(() => resolveWorkspaceFile(ws, "../outside/secret.txt"));
    expect(err.code).toBe("PathOutsideWorkspace");
    expect(err.details).toEqual({ file: "../outside/secret.txt" });
    expect(thrown(() => resolveWorkspaceFile(ws, "../outside/nothing")).code).toBe(
      "PathOutsideWorkspace",
    );
  });

  test("paths longer than any system call takes are judged, not walked component by component", () => {
    // half a million missing components: inside the root it is FileNotFound, and an absolute
    // one under the outside directory is still PathOutsideWorkspace (its existing ancestor)
    const deep = "d/".repeat(500_000);
    expect(thrown(() => resolveWorkspaceFile(ws, `${deep}x.txt`)).code).toBe("FileNotFound");
    expect(thrown(() => resolveWorkspaceFile(ws, join(outside, deep, "x.txt"))).code).toBe(
      "PathOutsideWorkspace",
    );
    expect(thrown(() => resolveWorkspaceFile(ws, join(ws, deep, "x.txt"))).code).toBe(
      "FileNotFound",
    );
  }, 10_000);

  test("absolute path outside", () => {
    const file = join(outside, "secret.txt");
    const err = thrown(() => resolveWorkspaceFile(ws, file));
    expect(err.code).toBe("PathOutsideWorkspace");
    expect(err.details).toEqual({ file });
  });

  test("symlink escapes, for files, directories, missing and dangling targets", () => {
    for (const file of ["escape", "escdir/secret.txt", "escdir/nothing", "dangle"]) {
      const err = thrown(() => resolveWorkspaceFile(ws, file));
      expect(err.code).toBe("PathOutsideWorkspace");
      expect(err.details).toEqual({ file });
    }
  });

  test("missing file and directory are FileNotFound", () => {
    const missing = thrown(() => resolveWorkspaceFile(ws, "missing.txt"));
    expect(missing.code).toBe("FileNotFound");
    const dir = thrown(() => resolveWorkspaceFile(ws, "sub"));
    expect(dir.code).toBe("FileNotFound");
    expect(dir.hint).toContain("directory");
    expect(thrown(() => resolveWorkspaceFile(ws, "a.txt/x")).code).toBe("FileNotFound");
  });

  test("empty path is an invalid argument", () => {
    expect(thrown(() => resolveWorkspaceFile(ws, "")).code).toBe("InvalidArgument");
  });
});

test("sha256Hex of text and bytes agree", () => {
  expect(sha256Hex("abc")).toBe(sha256Hex(new TextEncoder().encode("abc")));
});
