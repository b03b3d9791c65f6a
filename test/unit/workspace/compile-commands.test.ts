import { describe, expect, test } from "bun:test";
import {
  checkCompileCommands,
  compileDatabaseFiles,
} from "../../../src/workspace/compile-commands.ts";

describe("compile_commands.json validation (SPEC §3.4)", () => {
  test("accepts entries with command or arguments", () => {
    const text = JSON.stringify([
      { directory: "/w", file: "/w/a.c", command: "cc -c a.c" },
      { directory: "/w", file: "b.c", arguments: ["cc", "-c", "b.c"] },
    ]);
    expect(checkCompileCommands(text)).toEqual({ ok: true, entries: 2 });
  });

  test.each([
    ["{not json", null, "not valid JSON"],
    ['{"directory":"/w"}', null, "not a JSON array"],
    ["[]", null, "no entries"],
    ['[{"directory":"/w","file":"a.c","command":"cc"}, 3]', 1, "entry 1 is not an object"],
    ['[{"file":"a.c","command":"cc"}]', 0, '"directory"'],
    ['[{"directory":"/w","command":"cc"}]', 0, '"file"'],
    ['[{"directory":"/w","file":"a.c"}]', 0, 'neither a "command"'],
    ['[{"directory":"/w","file":"a.c","arguments":[]}]', 0, 'neither a "command"'],
    ['[{"directory":"/w","file":"a.c","arguments":["cc",1]}]', 0, 'neither a "command"'],
  ])("rejects %s", (text, index, reason) => {
    const r = checkCompileCommands(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.index).toBe(index);
      expect(r.reason).toContain(reason);
    }
  });
});

describe("the files a compile database names (SPEC §4.3 outside_program)", () => {
  test("each entry's file against its directory, a relative directory against the database's", () => {
    const text = JSON.stringify([
      { directory: "/w", file: "/w/a.c", command: "cc" },
      { directory: "/w/sub", file: "../b.c", command: "cc" },
      { directory: "build", file: "c.c", command: "cc" },
      { directory: "/w", command: "cc" },
    ]);
    expect([...(compileDatabaseFiles(text, "/w") ?? [])].sort()).toEqual([
      "/w/a.c",
      "/w/b.c",
      "/w/build/c.c",
    ]);
  });

  test("no array of entries: null", () => {
    expect(compileDatabaseFiles("{not json", "/w")).toBeNull();
    expect(compileDatabaseFiles('{"file": "a.c"}', "/w")).toBeNull();
  });
});
