/** SPEC §2.1: what discovery's scan never walks (vendored, dot and gitignored trees). */
import { describe, expect, test } from "bun:test";
import { gitignoreMatcher, skippedByName } from "../../../src/discovery/ignore.ts";

describe("what the scan never walks", () => {
  test.each([
    ["node_modules", true],
    [".git", true],
    [".venv", true],
    ["target", true],
    ["build", true],
    ["dist", true],
    ["cmake-build-debug", true],
    ["bazel-out", true],
    ["src", false],
    ["lib", false],
    ["builder", false],
  ])("%s skipped: %p", (name, skipped) => {
    expect(skippedByName(name)).toBe(skipped);
  });

  test("gitignore: plain, anchored, directory-only and glob patterns; comments and negations ignored", () => {
    const ignored = gitignoreMatcher(
      ["# comment", "", "generated", "/coverage", "tmp/", "*.log", "docs/api", "!keep.log"].join(
        "\n",
      ),
    );
    expect(ignored("generated", true)).toBe(true);
    expect(ignored("a/b/generated", true)).toBe(true);
    expect(ignored("coverage", true)).toBe(true);
    expect(ignored("src/coverage", true)).toBe(false); // anchored to the root
    expect(ignored("tmp", true)).toBe(true);
    expect(ignored("tmp", false)).toBe(false); // directories only
    expect(ignored("x/trace.log", false)).toBe(true);
    expect(ignored("keep.log", false)).toBe(true); // negation not honoured: skipped anyway
    expect(ignored("docs/api", true)).toBe(true);
    expect(ignored("src/docs/api", true)).toBe(false);
    expect(ignored("src/main.c", false)).toBe(false);
  });

  test("an empty or comment-only .gitignore ignores nothing", () => {
    expect(gitignoreMatcher("")("a", true)).toBe(false);
    expect(gitignoreMatcher("# x\n\n!y\n")("y", false)).toBe(false);
  });
});
