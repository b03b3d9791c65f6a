import { describe, expect, test } from "bun:test";
import {
  keptLineBreaks,
  layoutBreak,
  lineBreaks,
  notLayoutOnly,
} from "../../../src/apply/format-rule.ts";
import { editedText } from "../../../src/apply/validate.ts";
import { BridgeError } from "../../../src/errors.ts";
import { lineModel } from "../../../src/text/line-model.ts";
import { edit, type r } from "../../support/normalize-context.ts";
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
  test("edits in any order, applied to the text as it is", () => {
    const text = "a\r\nbb\ncc\n";
    const edits = [edit(2, 0, 2, 0, "  "), edit(0, 1, 1, 0, "\n")];
    expect(editedText("f", text, edits, "utf-16")).toBe("a\nbb\n  cc\n");
  });

  test("overlapping edits or a range outside the file: EditInvalid", () => {
    const text = "abc\n";
    for (const edits of [[edit(0, 0, 0, 2, ""), edit(0, 1, 0, 3, "")], [edit(5, 0, 5, 1, "")]]) {
      expect(thrown(() => editedText("f", text, edits, "utf-16"))).toMatchObject({
        code: "EditInvalid",
      });
    }
  });
});

describe("a file's one kind of line break stays its only one", () => {
  type Edit = { range: ReturnType<typeof r>; newText: string };
  const edited = (text: string) => (edits: readonly Edit[]) =>
    editedText("f", text, edits, "utf-16");

  test("lineBreaks: the one kind a text uses, mixed, or none", () => {
    expect(lineBreaks("a\r\nb\r\n")).toBe("\r\n");
    expect(lineBreaks("a\nb")).toBe("\n");
    expect(lineBreaks("a\rb\r")).toBe("\r");
    expect(lineBreaks("a\r\nb\n")).toBe("mixed");
    expect(lineBreaks("a\r\r\n")).toBe("mixed");
    expect(lineBreaks("ab")).toBeUndefined();
  });

  test("tsserver's `\\n` into a CRLF file is written `\\r\\n`; the result has CRLF only", () => {
    // `return a + 1 }` → `return a + 1\n}`: the edit tsserver answers
    const text = "function f(a) {\r\n  return a + 1 }\r\n";
    const edits = [edit(1, 14, 1, 15, "\n")];
    const kept = keptLineBreaks("f.ts", text, edits, edited(text));
    expect(kept.edits).toEqual([edit(1, 14, 1, 15, "\r\n")]);
    expect(kept.after).toBe("function f(a) {\r\n  return a + 1\r\n}\r\n");
    expect(lineBreaks(kept.after)).toBe("\r\n");
  });

  test("CRLF breaks into an LF file are written `\\n`; CR and CRLF alike", () => {
    const text = "a\nb\n";
    const edits = [edit(0, 1, 0, 1, "\r\n\r")];
    expect(keptLineBreaks("f", text, edits, edited(text)).after).toBe("a\n\n\nb\n");
  });

  test("edits that convert every break, a mixed file, a file without breaks: as they came", () => {
    const crlf = "a\r\nb\r\n";
    const toLf = [edit(0, 1, 1, 0, "\n"), edit(1, 1, 2, 0, "\n")];
    expect(keptLineBreaks("f", crlf, toLf, edited(crlf))).toEqual({ edits: toLf, after: "a\nb\n" });
    const mixed = "a\r\nb\n";
    const split = [edit(0, 0, 0, 0, "x\n")];
    expect(keptLineBreaks("f", mixed, split, edited(mixed)).edits).toBe(split);
    expect(keptLineBreaks("f", "ab", split, edited("ab")).after).toBe("x\nab");
  });

  test("two kinds even with the file's breaks written: EditInvalid, reason line_breaks", () => {
    // a server counting lines at LF alone (gopls) removes the first line's CR
    const text = "a\r\nb\r\n";
    const edits = [edit(0, 1, 0, 2, "")];
    const lf = [lineModel(["lf"])];
    const e = thrown(() =>
      keptLineBreaks("f.go", text, edits, (es) => editedText("f", text, es, "utf-16", lf)),
    );
    expect(e).toMatchObject({
      code: "EditInvalid",
      details: { file: "f.go", reason: "line_breaks", line_break: "\r\n" },
    });
  });
});
