import { describe, expect, test } from "bun:test";
import type { Hover } from "vscode-languageserver-protocol";
import { normalizeHover } from "../../../src/normalize/hover.ts";
import { fileUri, fixtureContext, r } from "../../support/normalize-context.ts";

const URI = fileUri("h.py");
const { ctx } = fixtureContext({ "h.py": "def f😀(): pass\n" });

describe("normalizeHover", () => {
  test("markdown: fences dropped, content kept, CRLF and trailing spaces cleaned", () => {
    const hover: Hover = {
      contents: {
        kind: "markdown",
        value: "```python\r\ndef f(): ...  \r\n```\r\n---\r\nDocs.  \r\n\r\n",
      },
      range: r(0, 4, 0, 7),
    };
    expect(normalizeHover(hover, URI, ctx)).toEqual({
      text: "def f(): ...\n---\nDocs.",
      range: { line: 1, column: 5, end_line: 1, end_column: 7 },
    });
  });

  test("MarkedString[]: parts joined by a blank line, empty parts dropped", () => {
    const hover: Hover = {
      contents: ["```python\nx: int\n```", { language: "python", value: "def g()" }, "", "text"],
    };
    expect(normalizeHover(hover, URI, ctx)).toEqual({
      text: "x: int\n\ndef g()\n\ntext",
      range: null,
    });
  });

  test("plaintext keeps backtick lines; lone CR becomes LF", () => {
    const hover: Hover = { contents: { kind: "plaintext", value: "```\rint x\r" } };
    expect(normalizeHover(hover, URI, ctx).text).toBe("```\nint x");
  });

  test("a single MarkedString and a code block object", () => {
    expect(normalizeHover({ contents: "**bold**" }, URI, ctx).text).toBe("**bold**");
    expect(normalizeHover({ contents: { language: "c", value: "int x;\n" } }, URI, ctx).text).toBe(
      "int x;",
    );
  });

  test("no content → text null", () => {
    expect(normalizeHover(null, URI, ctx)).toEqual({ text: null, range: null });
    expect(normalizeHover(undefined, URI, ctx)).toEqual({ text: null, range: null });
    expect(normalizeHover({ contents: [] }, URI, ctx)).toEqual({ text: null, range: null });
    expect(
      normalizeHover({ contents: { kind: "markdown", value: "```\n```\n  " } }, URI, ctx).text,
    ).toBeNull();
  });
});
