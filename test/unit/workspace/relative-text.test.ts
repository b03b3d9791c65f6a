/**
 * SPEC §4.6: error texts name a path inside the call's workspace relatively (the root
 * itself is "."), a path outside absolutely — in the message, the hint and every string
 * of details, whatever the error site wrote.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { relativizeEnvelope, relativizer } from "../../../src/workspace/relative-text.ts";
import { pathToUri } from "../../../src/workspace/uri.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";

const base = tempDir("theodolite-reltext-", {});
afterAll(removeTempDirs);
const root = join(base, "ws");
mkdirSync(join(root, "src"), { recursive: true });

describe("relativizer", () => {
  const rel = relativizer(root);
  test.each([
    [`${root}/src/main.c`, "src/main.c"],
    [`cannot read ${root}/src/main.c: EACCES`, "cannot read src/main.c: EACCES"],
    [
      `${root}/compile_commands.json: entry 0 has no "file" string`,
      'compile_commands.json: entry 0 has no "file" string',
    ],
    [`in ${root}, and there is none`, "in ., and there is none"],
    [`"${root}/a.c" and "${root}/b.c"`, '"a.c" and "b.c"'],
    [`at ${root}/src/main.c:3:5`, "at src/main.c:3:5"],
    [`(${root}/x.c)`, "(x.c)"],
    [`${pathToUri(root)}/src/main.c`, "src/main.c"],
    [pathToUri(root), "."],
  ])("%s → %s", (text, expected) => {
    expect(rel(text)).toBe(expected);
  });

  test.each([
    ["a sibling whose name extends the root's", `${root}x/main.c`],
    ["a path that contains the root further in", `/elsewhere${root}/main.c`],
    ["a path outside", "/usr/include/stdio.h"],
    ["text without paths", "no server handles this"],
  ])("leaves %s alone", (_what, text) => {
    expect(rel(text)).toBe(text);
  });

  test("a root with a space, in plain and URI form", () => {
    const spaced = join(base, "my ws");
    const r = relativizer(spaced);
    expect(r(`${spaced}/a b.c is missing`)).toBe("a b.c is missing");
    expect(r(`${pathToUri(spaced)}/a%20b.c`)).toBe("a b.c");
  });

  test("the configured spelling and the real one both count (a root behind a symlink)", () => {
    const link = join(base, "link");
    symlinkSync(root, link);
    const r = relativizer(link);
    expect(r(`${link}/src/main.c`)).toBe("src/main.c");
    expect(r(`${root}/src/main.c`)).toBe("src/main.c");
  });
});

describe("relativizeEnvelope", () => {
  test("message, hint and nested details; code and keys untouched; outside paths stay", () => {
    const env = relativizeEnvelope(
      {
        code: "WorkspaceFileMissing",
        message: `clangd needs ${root}/compile_commands.json, and there is none`,
        hint: `generate ${root}/compile_commands.json`,
        details: {
          file: `${root}/compile_commands.json`,
          root,
          candidates: [`${root}/a.c`, "/usr/include/b.h"],
          nested: { path: `${root}/src`, count: 3, ok: true, none: null },
        },
      },
      root,
    );
    expect(env).toEqual({
      code: "WorkspaceFileMissing",
      message: "clangd needs compile_commands.json, and there is none",
      hint: "generate compile_commands.json",
      details: {
        file: "compile_commands.json",
        root: ".",
        candidates: ["a.c", "/usr/include/b.h"],
        nested: { path: "src", count: 3, ok: true, none: null },
      },
    });
  });

  test("without a workspace the envelope is returned as it is", () => {
    const env = { code: "UnknownWorkspace" as const, message: `${root}/x` };
    expect(relativizeEnvelope(env, undefined)).toBe(env);
  });
});
