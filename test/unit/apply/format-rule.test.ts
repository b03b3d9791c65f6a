import { describe, expect, test } from "bun:test";
import { layoutBreak, notLayoutOnly } from "../../../src/apply/format-rule.ts";
import { editedText } from "../../../src/apply/validate.ts";
import { BridgeError } from "../../../src/errors.ts";
import { thrown } from "../../support/thrown.ts";

describe("layoutBreak: a formatting may change only white space", () => {
  test.each([
    [
      "re-indented, spaces to tabs",
      "fn main(){\n  let x=1;\n}\n",
      "fn main() {\n\tlet x = 1;\n}\n",
    ],
    ["lines joined and split", "a(b,\nc)", "a( b , c )"],
    ["CRLF to LF, trailing space dropped", "x; \r\ny;\r\n", "x;\ny;\n"],
    ["blank lines added at both ends", "x", "\n\nx\n\n"],
    ["nothing", "", ""],
  ])("%s: layout only", (_name, before, after) => {
    expect(layoutBreak(before, after)).toBeUndefined();
  });

  test.each([
    ["a token changed", "let x = 1;\n", "let x = 2;\n", 8, "2;"],
    ["code inserted", "f();\n", "f();rm();\n", 5, "rm();"],
    ["code removed at the end", "a;\nb;\n", "a;\n", 3, ""],
    ["imports reordered", "use b;\nuse a;\n", "use a;\nuse b;\n", 4, "a;"],
    ["a trailing comma added", "f(a,\n  b\n)", "f(a,\n  b,\n)", 9, ",\n)"],
  ])("%s: refused at the first difference", (_name, before, after, offset, written) => {
    const at = layoutBreak(before, after);
    expect(at?.offset).toBe(offset);
    expect(at?.found).toBe(before.slice(offset, offset + 32));
    expect(at?.written.startsWith(written)).toBe(true);
  });

  test("the refusal names the place in client lines and code points, and what was written", () => {
    const before = "x🦀 = 1;\ny = 2;\n";
    const after = "x🦀 = 1;\ny = 3;\n";
    const at = layoutBreak(before, after);
    if (at === undefined) throw new Error("expected a break");
    const e = notLayoutOnly("src/a.rs", before, at);
    expect(e).toBeInstanceOf(BridgeError);
    expect(e.code).toBe("EditInvalid");
    expect(e.details).toEqual({
      file: "src/a.rs",
      reason: "not_layout",
      line: 2,
      column: 5,
      found: "2;\n",
      written: "3;\n",
    });
  });
});

describe("editedText: the text a writer would write", () => {
  const r = (l0: number, c0: number, l1: number, c1: number) => ({
    start: { line: l0, character: c0 },
    end: { line: l1, character: c1 },
  });

  test("edits in any order, applied to the text as it is", () => {
    const text = "a\r\nbb\ncc\n";
    const edits = [
      { range: r(2, 0, 2, 0), newText: "  " },
      { range: r(0, 1, 1, 0), newText: "\n" },
    ];
    expect(editedText("f", text, edits, "utf-16")).toBe("a\nbb\n  cc\n");
  });

  test("overlapping edits or a range outside the file: EditInvalid", () => {
    const text = "abc\n";
    for (const edits of [
      [
        { range: r(0, 0, 0, 2), newText: "" },
        { range: r(0, 1, 0, 3), newText: "" },
      ],
      [{ range: r(5, 0, 5, 1), newText: "" }],
    ]) {
      expect(thrown(() => editedText("f", text, edits, "utf-16"))).toMatchObject({
        code: "EditInvalid",
      });
    }
  });
});
