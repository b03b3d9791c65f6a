/** SPEC §4.2, §8: which file a path means (realpath confinement), paths and URIs. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import {
  atOrBelow,
  displayPath,
  relativeInside,
  resolveWorkspaceFile,
  sha256Hex,
} from "../../../src/workspace/files.ts";
import { pathToUri, uriToPath } from "../../../src/workspace/uri.ts";
import { confinementTree, removeTempTrees } from "../../support/temp-tree.ts";
import { thrown } from "../../support/thrown.ts";

let base = "";
let ws = "";
let outside = "";

beforeAll(() => {
  ({ base, ws, outside } = confinementTree());
});
afterAll(removeTempTrees);

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
    expect(resolveWorkspaceFile(link, "a.txt").rel).toBe("a.txt");
    expect(resolveWorkspaceFile(link, join(link, "sub", "b.txt")).rel).toBe("sub/b.txt");
  });

  test("`..` escape", () => {
    const err = thrown(() => resolveWorkspaceFile(ws, "../outside/secret.txt"));
    expect(err.code).toBe("PathOutsideWorkspace");
    expect(err.details).toEqual({ file: "../outside/secret.txt", root: ws });
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
    expect(err.details).toEqual({ file, root: ws });
  });

  test("symlink escapes, for files, directories, missing and dangling targets", () => {
    for (const file of ["escape", "escdir/secret.txt", "escdir/nothing", "dangle"]) {
      const err = thrown(() => resolveWorkspaceFile(ws, file));
      expect(err.code).toBe("PathOutsideWorkspace");
      expect(err.details).toEqual({ file, root: ws });
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

describe("paths and URIs", () => {
  test("sha256Hex of text and bytes agree", () => {
    expect(sha256Hex("abc")).toBe(sha256Hex(new TextEncoder().encode("abc")));
  });

  test("displayPath: relative inside, absolute outside", () => {
    expect(displayPath(ws, join(ws, "sub", "b.txt"))).toBe("sub/b.txt");
    expect(displayPath(join(base, "wslink"), join(ws, "a.txt"))).toBe("a.txt");
    expect(displayPath(ws, join(outside, "secret.txt"))).toBe(join(outside, "secret.txt"));
    expect(displayPath(ws, `${ws}-sibling/x`)).toBe(`${ws}-sibling/x`);
  });

  test("atOrBelow: the directory itself and what lies below it, never a sibling prefix", () => {
    expect(atOrBelow("/ws", "/ws")).toBe(true);
    expect(atOrBelow("/ws", "/ws/a/b.py")).toBe(true);
    expect(atOrBelow("/ws", "/ws-sibling/x")).toBe(false);
    expect(atOrBelow("/ws/a", "/ws")).toBe(false);
    expect(atOrBelow("/", "/anything")).toBe(true);
  });

  test("pathToUri percent-encodes; uriToPath inverts it", () => {
    const path = "/tmp/a b/ü#1?.c";
    const uri = pathToUri(path);
    expect(uri).toBe("file:///tmp/a%20b/%C3%BC%231%3F.c");
    expect(uriToPath(uri)).toBe(path);
  });

  test("uriToPath is null for non-file and remote URIs", () => {
    expect(uriToPath("untitled:Untitled-1")).toBeNull();
    expect(uriToPath("jdt://contents/x")).toBeNull();
    expect(uriToPath("file://server/share/x")).toBeNull();
    expect(uriToPath("file:///a/%2F/b")).toBeNull();
  });
});

describe("the fast paths for plain paths and URIs agree with the general ones", () => {
  const parts = ["a", ".", "..", "", ".git", "..b", "b.", "a b", "é", "%2F", "%41", "a?b", "a#b"];
  const more = ["a\\b", "C:", "a;b=c", "~x", "@", "\t", "x|y"];
  /** every path of up to three segments from the parts above */
  function paths(): string[] {
    const out: string[] = [];
    const all = [...parts, ...more];
    for (const x of all) {
      out.push(`/${x}`);
      for (const y of all) {
        out.push(`/${x}/${y}`);
        for (const z of ["a", ".", "..", ""]) out.push(`/${x}/${y}/${z}`);
      }
    }
    return out;
  }

  test("uriToPath: fileURLToPath's answer for every file URI, null for the rest", () => {
    const reference = (uri: string): string | null => {
      if (!/^file:/i.test(uri)) return null;
      try {
        return fileURLToPath(uri);
      } catch {
        return null;
      }
    };
    const uris = paths().flatMap((p) => [`file://${p}`, `file://host${p}`, `FILE://${p}`]);
    uris.push("file:///", "file:/a/b", "file:a", "untitled:a", "https://x/a.ts", "file://");
    for (const uri of uris) expect([uri, uriToPath(uri)]).toEqual([uri, reference(uri)]);
  });

  test("relativeInside: path.relative's answer for every root and path", () => {
    const reference = (root: string, abs: string): string | null => {
      const rel = relative(root, abs);
      if (rel === "") return ".";
      if (rel === ".." || rel.startsWith("../") || isAbsolute(rel)) return null;
      return rel;
    };
    const roots = ["/", "/a", "/a/", "/a/..b", "/a/./b", "/a//b", "/a/b/..", "/é"];
    for (const root of roots) {
      for (const p of paths()) {
        for (const abs of [p, `${root}${p}`]) {
          expect([root, abs, relativeInside(root, abs)]).toEqual([root, abs, reference(root, abs)]);
        }
      }
    }
  });
});
