import { describe, expect, test } from "bun:test";
import { versionControlPart } from "../../../src/apply/vcs.ts";

describe("versionControlPart (SPEC §7.4: no apply writes into version-control internals)", () => {
  const table: [string, string | undefined][] = [
    [".git/hooks/pre-commit", ".git"],
    [".git/config", ".git"],
    ["sub/module/.git/hooks/post-checkout", ".git"],
    ["vendor/lib/.git", ".git"], // a worktree's or submodule's `.git` file
    [".hg/hgrc", ".hg"],
    ["a/.svn/entries", ".svn"],
    [".jj/repo/store", ".jj"],
    ["x/y/.bzr/branch/branch.conf", ".bzr"],
    [".GIT/hooks/pre-commit", ".GIT"], // as a case-insensitive file system would see it
    ["src/main.c", undefined],
    [".gitignore", undefined],
    [".gitattributes", undefined],
    [".github/workflows/ci.yml", undefined],
    ["docs/.git-notes.md", undefined],
    ["my.git/file", undefined],
    ["git/hooks/pre-commit", undefined],
    [".hgignore", undefined],
    ["deploy.sh", undefined],
  ];
  for (const [rel, part] of table) {
    test(`${rel} → ${part ?? "writable"}`, () => {
      expect(versionControlPart(rel)).toBe(part);
    });
  }
});
