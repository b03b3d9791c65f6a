/** SPEC §4.2, §8: which file a path means (realpath confinement), paths and URIs. */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import {
  realRoot,
  resolveMaybeNewFile,
  resolveWorkspaceFile,
  sha256Hex,
} from "../../../src/workspace/files.ts";
import { confinementTree, removeTempDirs } from "../../support/temp-dirs.ts";
import { thrown } from "../../support/thrown.ts";

const { base, ws, outside } = confinementTree();
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

describe("resolveMaybeNewFile (a preview's new file, SPEC §6.2)", () => {
  test("a file on disk resolves as a `file` argument; a new one in an existing directory", () => {
    expect(resolveMaybeNewFile(ws, "inlink")).toEqual({
      abs: join(ws, "a.txt"),
      rel: "a.txt",
      exists: true,
    });
    expect(resolveMaybeNewFile(ws, "sub/../sub/new.txt")).toEqual({
      abs: join(ws, "sub", "new.txt"),
      rel: "sub/new.txt",
      exists: false,
    });
    expect(resolveMaybeNewFile(ws, join(ws, "new.txt")).rel).toBe("new.txt");
    // new directories too, below an existing one inside
    expect(resolveMaybeNewFile(ws, "sub/x/y/new.txt")).toEqual({
      abs: join(ws, "sub", "x", "y", "new.txt"),
      rel: "sub/x/y/new.txt",
      exists: false,
    });
  });

  test("outside, through links, missing directories, dangling links and bad paths", () => {
    const code = (file: string) => thrown(() => resolveMaybeNewFile(ws, file)).code;
    expect(code("../outside/new.txt")).toBe("PathOutsideWorkspace");
    expect(code(join(outside, "new.txt"))).toBe("PathOutsideWorkspace");
    expect(code("escdir/new.txt")).toBe("PathOutsideWorkspace");
    expect(code("escdir/new/x.txt")).toBe("PathOutsideWorkspace");
    // through a file: not a directory
    expect(code("a.txt/new.txt")).toBe("FileNotFound");
    expect(thrown(() => resolveMaybeNewFile(ws, "a.txt/x/new.txt")).hint).toContain("directories");
    // a dangling link is an entry: never a new file written through it
    expect(code("dangle")).toBe("PathOutsideWorkspace");
    expect(code("sub")).toBe("FileNotFound");
    expect(code("")).toBe("InvalidArgument");
    expect(code("a\0b")).toBe("InvalidArgument");
  });
});

test("sha256Hex of text and bytes agree", () => {
  expect(sha256Hex("abc")).toBe(sha256Hex(new TextEncoder().encode("abc")));
});
