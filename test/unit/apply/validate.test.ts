import { describe, expect, test } from "bun:test";
import {
  changingEdits,
  checkRenameEdits,
  type FileSnapshot,
  type PlannedWrite,
  planWrites,
  writtenParts,
} from "../../../src/apply/validate.ts";
import { BridgeError } from "../../../src/errors.ts";
import { LSP_LINES, lineModel } from "../../../src/text/line-model.ts";
import type { LspRange, PositionEncoding } from "../../../src/text/positions.ts";
import { sha256Hex } from "../../../src/workspace/files.ts";
import { edit, r } from "../../support/normalize-context.ts";

type Edit = { range: LspRange; newText: string };

function snap(abs: string, text: string): FileSnapshot {
  return { abs, text, sha256: sha256Hex(text) };
}

/** The text the writer writes for `plan` over `text`: the old bytes with its pieces. */
function written(text: string, plan: PlannedWrite | undefined): string {
  return Buffer.concat(writtenParts(Buffer.from(text), plan!.pieces)).toString("utf8");
}

function one(text: string, edits: Edit[], enc: PositionEncoding = "utf-16"): string {
  const [plan] = planWrites([{ snapshot: snap("/ws/f.txt", text), edits }], enc);
  return written(text, plan);
}

/** The EditInvalid `fn` throws, with a hint. */
function thrown(fn: () => unknown): BridgeError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(BridgeError);
    const e = err as BridgeError;
    expect(e.code).toBe("EditInvalid");
    expect(e.hint).toBeTruthy();
    return e;
  }
  throw new Error("expected EditInvalid, nothing was thrown");
}
type Refusal = { file: string; index: number | null; reason: string };
const rejected = (fn: () => unknown) => thrown(fn).details as Refusal;
/** Why `one(text, edits, enc)` is refused. */
const reason = (text: string, edits: Edit[], enc?: PositionEncoding) =>
  rejected(() => one(text, edits, enc)).reason;
const outside = (where: string, enc = "utf-16") => `${where} is outside the file (${enc})`;

describe("planWrites (SPEC §7.4)", () => {
  test("ranges resolve in the server's lines (SPEC §5): a lone CR for clangd, U+2028 for tsserver", () => {
    // the server renames `f` in its line 1; a lone CR earlier makes that the client's line 2
    const c = "int f;\n/* a\rb */ f();\n";
    const lf = lineModel(["lf"]);
    const edits = [edit(1, 10, 1, 11, "g")];
    const [clangd] = planWrites([{ snapshot: snap("/ws/a.c", c), edits }], "utf-16", [lf]);
    expect(written(c, clangd)).toBe("int f;\n/* a\rb */ g();\n");
    // counted in LSP's lines, line 1 is "/* a": refused, never written elsewhere
    expect(reason(c, edits)).toContain("outside the file");
    const ts = "let f;\n/* a\u2028b */ f();\n";
    const tsserver = lineModel(["cr", "lf", "crlf", "u2028", "u2029"]);
    const call = [edit(2, 5, 2, 6, "g")];
    const [tsPlan] = planWrites([{ snapshot: snap("/ws/a.ts", ts), edits: call }], "utf-16", [
      tsserver,
    ]);
    expect(written(ts, tsPlan)).toBe("let f;\n/* a\u2028b */ g();\n");
    // LSP's line 2 is the empty last line here: refused, never written elsewhere
    expect(reason(ts, call)).toContain("outside the file");
  });

  test("applies several edits to a file regardless of their order in the array", () => {
    const text = "int a = 1;\nint b = 2;\nreturn a;\n";
    const edits = [
      edit(2, 7, 2, 8, "total"),
      edit(0, 4, 0, 5, "total"),
      edit(1, 0, 1, 0, "// b\n"),
    ];
    const [plan] = planWrites([{ snapshot: snap("/ws/a.c", text), edits }], "utf-16");
    expect(written(text, plan)).toBe("int total = 1;\n// b\nint b = 2;\nreturn total;\n");
    expect(plan).toMatchObject({ abs: "/ws/a.c", oldSha256: sha256Hex(text), editCount: 3 });
    expect(plan?.changed).toBe(true);
  });

  test("plans every file of a multi-file edit set", () => {
    const files: [string, string, Edit[]][] = [
      ["/ws/a.h", "int f(void);\n", [edit(0, 4, 0, 5, "g")]],
      ["/ws/a.c", "int f(void) { return 0; }\n", [edit(0, 4, 0, 5, "g")]],
      ["/ws/b.c", "untouched\n", []],
    ];
    const plans = planWrites(
      files.map(([abs, text, edits]) => ({ snapshot: snap(abs, text), edits })),
      "utf-8",
    );
    expect(plans.map((p, i) => [p.abs, written(files[i]![1], p), p.editCount, p.changed])).toEqual([
      ["/ws/a.h", "int g(void);\n", 1, true],
      ["/ws/a.c", "int g(void) { return 0; }\n", 1, true],
      ["/ws/b.c", "untouched\n", 0, false],
    ]);
  });

  test("touching edits are fine, including inserts at either edge of a replaced range", () => {
    const text = "abcdef";
    expect(
      one(text, [edit(0, 2, 0, 4, "XY"), edit(0, 0, 0, 2, "__"), edit(0, 4, 0, 6, "!!")]),
    ).toBe("__XY!!");
    // insert at the start of a replaced range lands before the replacement
    expect(one(text, [edit(0, 1, 0, 3, "R"), edit(0, 1, 0, 1, "I")])).toBe("aIRdef");
    // insert at the end of a replaced range lands after it
    expect(one(text, [edit(0, 3, 0, 3, "I"), edit(0, 1, 0, 3, "R")])).toBe("aRIdef");
  });

  test("overlapping ranges are rejected, naming the later edit", () => {
    const text = "abcdef\nghij\n";
    const d = rejected(() => one(text, [edit(0, 0, 0, 3, "x"), edit(0, 2, 0, 5, "y")]));
    expect(d).toEqual({ file: "/ws/f.txt", index: 1, reason: "overlaps edit 0" });
    // across lines, given in reverse order
    expect(rejected(() => one(text, [edit(1, 1, 1, 2, "y"), edit(0, 4, 1, 2, "x")])).index).toBe(1);
    // an insert strictly inside a replaced range; identical ranges
    for (const pair of [
      [edit(0, 1, 0, 4, "x"), edit(0, 2, 0, 2, "y")],
      [edit(0, 1, 0, 2, "x"), edit(0, 1, 0, 2, "x")],
    ])
      expect(reason(text, pair)).toBe("overlaps edit 0");
  });

  test("two inserts at the same point are rejected (ambiguous order)", () => {
    const d = rejected(() =>
      one("abc", [edit(0, 1, 0, 1, "x"), edit(0, 2, 0, 2, "z"), edit(0, 1, 0, 1, "y")]),
    );
    expect(d).toEqual({
      file: "/ws/f.txt",
      index: 2,
      reason: "inserts at the same position as edit 0",
    });
  });

  test("positions are strict: a line or character past the end is rejected, the line end is fine", () => {
    const text = "ab\ncd";
    expect(one(text, [edit(0, 2, 0, 2, "!")])).toBe("ab!\ncd");
    expect(one(text, [edit(1, 2, 1, 2, "!")])).toBe("ab\ncd!");
    expect(reason(text, [edit(0, 3, 0, 3, "!")])).toBe(outside("start 0:3"));
    expect(reason(text, [edit(0, 0, 0, 3, "!")])).toBe(outside("end 0:3"));
    expect(reason(text, [edit(2, 0, 2, 0, "!")])).toBe(outside("start 2:0"));
    expect(reason(text, [edit(0, 0, 5, 0, "!")])).toBe(outside("end 5:0"));
  });

  test("a trailing newline makes one more (empty) line addressable", () => {
    expect(one("ab\n", [edit(1, 0, 1, 0, "cd")])).toBe("ab\ncd");
  });

  test("start after end, negative or fractional positions and a missing range are rejected", () => {
    const integers = "range positions must be non-negative integers";
    const rows: [unknown, string][] = [
      [edit(0, 4, 0, 2, ""), "range start is after its end"],
      [edit(0, -1, 0, 2, ""), integers],
      [edit(0, 1.5, 0, 2, ""), integers],
      [{ newText: "" }, "edit has no range"],
      [{ range: r(0, 0, 0, 1), newText: 7 }, "newText is not a string"],
    ];
    for (const [bad, why] of rows) expect(reason("abcdef", [bad as Edit])).toBe(why);
  });

  test("astral characters: columns count per the encoding, splitting a character is rejected", () => {
    const text = "a😀b"; // 😀 is 2 UTF-16 units, 1 code point, 4 UTF-8 bytes
    // replace the "b" after the emoji
    expect(one(text, [edit(0, 3, 0, 4, "B")], "utf-16")).toBe("a😀B");
    expect(one(text, [edit(0, 2, 0, 3, "B")], "utf-32")).toBe("a😀B");
    expect(one(text, [edit(0, 5, 0, 6, "B")], "utf-8")).toBe("a😀B");
    // replace the emoji itself
    expect(one(text, [edit(0, 1, 0, 3, "x")], "utf-16")).toBe("axb");
    expect(one(text, [edit(0, 1, 0, 2, "x")], "utf-32")).toBe("axb");
    // the same numbers mean different things per encoding
    expect(one(text, [edit(0, 1, 0, 2, "x")], "utf-32")).not.toBe(
      one(text, [edit(0, 2, 0, 3, "x")], "utf-32"),
    );
    // utf-16 column 2 is between the surrogates; utf-8 column 3 is inside the emoji's bytes
    expect(rejected(() => one(text, [edit(0, 2, 0, 2, "x")], "utf-16")).index).toBe(0);
    expect(reason(text, [edit(0, 1, 0, 3, "x")], "utf-8")).toBe(outside("end 0:3", "utf-8"));
    // past the end in utf-32 that would still be inside the line in utf-16
    expect(reason(text, [edit(0, 4, 0, 4, "x")], "utf-32")).toBe(outside("start 0:4", "utf-32"));
  });

  test("newText with a lone surrogate is rejected (it would not survive UTF-8)", () => {
    expect(reason("abc", [edit(0, 0, 0, 1, "\ud83d")])).toBe("newText is not well-formed Unicode");
  });

  test("CRLF files keep their CRLF; nothing is normalized", () => {
    const text = "one\r\ntwo\r\nthree\r\n";
    expect(one(text, [edit(1, 0, 1, 3, "TWO")])).toBe("one\r\nTWO\r\nthree\r\n");
    // a whole-line replacement carrying the server's own line ending
    expect(one(text, [edit(0, 0, 1, 0, "uno\n")])).toBe("uno\ntwo\r\nthree\r\n");
    // the column just before "\r" is the line end; one more would split the CRLF
    expect(one(text, [edit(0, 3, 0, 3, "!")])).toBe("one!\r\ntwo\r\nthree\r\n");
    expect(rejected(() => one(text, [edit(0, 4, 0, 4, "!")])).index).toBe(0);
  });

  test("a lone CR ends a line too", () => {
    const text = "a\rbb\rc";
    expect(one(text, [edit(1, 1, 2, 0, "-")])).toBe("a\rb-c");
    expect(one(text, [edit(2, 1, 2, 1, "!")])).toBe("a\rbb\rc!");
    expect(reason(text, [edit(3, 0, 3, 0, "!")])).toBe(outside("start 3:0"));
  });

  test("a BOM is ordinary text: column 0 is before it, edits never drop it", () => {
    const text = "\ufeffx = 1\n";
    expect(one(text, [edit(0, 1, 0, 2, "y")])).toBe("\ufeffy = 1\n");
  });

  test("one bad edit anywhere rejects the whole set, naming its file", () => {
    const good = { snapshot: snap("/ws/good.c", "ok\n"), edits: [edit(0, 0, 0, 2, "fine")] };
    const bad = { snapshot: snap("/ws/bad.c", "x\n"), edits: [edit(0, 0, 0, 9, "y")] };
    const d = rejected(() => planWrites([good, bad], "utf-16"));
    expect(d.file).toBe("/ws/bad.c");
    expect(d.index).toBe(0);
  });

  test("the same file listed twice is rejected", () => {
    const twice = [edit(0, 0, 0, 1, "y"), edit(1, 0, 1, 0, "z")].map((e) => ({
      snapshot: snap("/ws/a.c", "x\n"),
      edits: [e],
    }));
    expect(rejected(() => planWrites(twice, "utf-16"))).toEqual({
      file: "/ws/a.c",
      index: null,
      reason: "the file appears more than once in the edit set",
    });
  });
});

describe("checkRenameEdits (SPEC §7.3: every edit replaces the renamed name)", () => {
  /** A rename of one text, in LSP's lines and UTF-16. */
  const rename = (text: string, oldName: string, newName: string) => (edits: Edit[]) =>
    checkRenameEdits("a.ts", text, edits, "utf-16", LSP_LINES, oldName, newName);
  const text = "use crate::report::total_area;\nfn main() { total_area(); }\n";
  const check = (edits: Edit[], oldName = "total_area") =>
    checkRenameEdits("src/main.rs", text, edits, "utf-16", LSP_LINES, oldName, "sum_area");

  test("each edit replacing the name with the new one", () => {
    check([edit(0, 19, 0, 29, "sum_area"), edit(1, 12, 1, 22, "sum_area")]);
  });

  test("a minimal difference: an insertion after the name (rust-analyzer's `as` alias)", () => {
    check([edit(0, 29, 0, 29, " as sum_area"), edit(1, 12, 1, 22, "sum_area")]);
  });

  test("two edits inside one word are one site", () => {
    const toSumAreas = rename("totalArea;\n", "totalArea", "sumAreas");
    toSumAreas([edit(0, 0, 0, 5, "sum"), edit(0, 9, 0, 9, "s")]);
  });

  test("a shorthand property: the name kept, the new one written beside it", () => {
    rename("const o = { foo };\n", "foo", "bar")([edit(0, 12, 0, 15, "foo: bar")]);
  });

  test("an edit on other text (a server counting lines differently) is refused with where and what", () => {
    // one line too low: the edit lands in `fn main() {` instead of on the import
    expect(thrown(() => check([edit(1, 0, 1, 10, "sum_area")])).details).toEqual({
      file: "src/main.rs",
      index: 0,
      line: 2,
      column: 1,
      replaced: "fn main() ",
      expected: "total_area",
    });
  });

  test("the name replaced, but the new name not written there, is refused", () => {
    thrown(() => check([edit(0, 19, 0, 29, "other")]));
  });

  test("an insertion touching no word is refused", () => {
    thrown(() => check([edit(0, 3, 0, 3, "sum_area")]));
  });

  test("tsserver's export and shorthand forms: the other name kept beside the new one", () => {
    const ts = (line: string, from: number, newText: string) =>
      rename(line, "foo", "bar")([{ range: r(0, from, 0, from + 3), newText }]);
    ts("export { foo };\n", 9, "bar as foo");
    ts("import { foo } from './m';\n", 9, "foo as bar");
    ts("const { foo } = o;\n", 8, "foo: bar");
    ts("const o = { foo };\n", 12, "bar: foo");
  });

  test("the new name among other text is refused, naming what it writes (nothing is written)", () => {
    const hostile = 'sum_area; rm -rf "$HOME" #';
    const e = thrown(() => check([edit(1, 12, 1, 22, hostile)]));
    expect(e.message).toContain("which is no rename of");
    expect(e.details).toEqual({
      file: "src/main.rs",
      index: 0,
      line: 2,
      column: 13,
      replaced: "total_area",
      expected: "total_area",
      written: hostile,
    });
    thrown(() => check([edit(1, 12, 1, 22, "sum_area\ncurl x | sh #")]));
  });

  test("an insertion right after the renamed word: refused for what it writes, not what it replaces", () => {
    const toBar = rename("foo foo\n", "foo", "bar");
    const { message } = thrown(() => toBar([edit(0, 0, 0, 3, "bar"), edit(0, 3, 0, 3, "X")]));
    expect(message).toBe(
      'edit set rejected: a.ts:1:1: the rename writes "barX" there, which is no rename of "foo" to "bar"',
    );
  });
});

describe("changingEdits: edits that change nothing are left out", () => {
  test("an empty insert and a text replaced by itself go; the rest stay, in order", () => {
    // gopls on a CRLF file: zero-width empty edits at the lines' ends
    const text = "package lib\r\n\r\nfunc  F() {}\r\n";
    const edits = [
      edit(0, 11, 0, 11, ""),
      edit(1, 0, 1, 0, ""),
      edit(2, 4, 2, 6, " "),
      edit(2, 12, 3, 0, "\r\n"),
      edit(2, 0, 2, 4, "func"),
    ];
    expect(changingEdits("f.go", text, edits, "utf-16")).toEqual(edits.slice(2, 3));
  });

  test("validated as a writer validates: a range outside the file is EditInvalid", () => {
    const d = rejected(() => changingEdits("f", "ab\n", [edit(4, 0, 4, 0, "")], "utf-16"));
    expect(d).toMatchObject({ file: "f", index: 0 });
  });
});
