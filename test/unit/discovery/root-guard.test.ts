/**
 * SPEC §2.1: the directories zero-config does not serve — the file system's root, the
 * home and temp directories, and one with no project marker and no source file in it or
 * one level below — decided from what lies near the top, read bounded.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { lookAtTop, refusal, type Top } from "../../../src/discovery/root-guard.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";

afterAll(removeTempDirs);

const PLACES = { home: "/home/ada", temp: ["/tmp"] };
const nothing = (): Top => ({ markers: [], sources: 0 });
const reason = (root: string, top: () => Top = nothing) =>
  refusal(root, PLACES, top)?.reason ?? null;

describe("refusal", () => {
  test("the root, the home and the temp directory, whatever they hold", () => {
    const rich = () => ({ markers: [".git", "go.mod"], sources: 40 });
    expect(reason("/", rich)).toBe("it is the file system's root");
    expect(reason("/home/ada", rich)).toBe("it is the home directory");
    expect(reason("/tmp", rich)).toBe("it is the system's temp directory");
  });

  test("elsewhere, a marker or a source file near the top is enough", () => {
    expect(reason("/home/ada/p", () => ({ markers: ["package.json"], sources: 0 }))).toBeNull();
    expect(reason("/home/ada/p", () => ({ markers: [], sources: 1 }))).toBeNull();
    expect(reason("/home/ada/p")).toContain("no project marker");
    expect(refusal("/home/ada/p", PLACES, nothing)?.hint).toContain("--config");
  });
});

describe("lookAtTop", () => {
  test("markers and source files in the directory and one level below", () => {
    const top = lookAtTop(
      tempDir("theodolite-tree-", ["go.mod", "cmd/main.go", "README.md", "docs/deep/x.py"]),
    );
    expect(top).toEqual({ markers: ["go.mod"], sources: 1 });
  });

  test("sources deeper down, or in vendored and dot directories, do not count", () => {
    const root = tempDir("theodolite-tree-", [
      "a/b/c.ts",
      "node_modules/x/i.js",
      ".cache/y.py",
      "notes.txt",
    ]);
    expect(lookAtTop(root)).toEqual({ markers: [], sources: 0 });
    expect(refusal(root, PLACES, () => lookAtTop(root))?.reason).toContain("no project marker");
  });

  test("a directory marker (.git) counts", () => {
    expect(lookAtTop(tempDir("theodolite-tree-", [".git/HEAD"])).markers).toEqual([".git"]);
  });
});
