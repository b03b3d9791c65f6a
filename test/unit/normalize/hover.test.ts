import { describe, expect, test } from "bun:test";
import type { Hover } from "vscode-languageserver-protocol";
import { normalizeHover } from "../../../src/normalize/hover.ts";
import { fileUri, fixtureContext, ROOT, r } from "../../support/normalize-context.ts";

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

  test("what pyright, gopls and clangd send reads as plain text, with no machine path", () => {
    const md = (value: string): Hover => ({ contents: { kind: "markdown", value } });
    const pyright =
      "```python\n(function) def documented(x: int) -> int\n```\n---\nReturn x \\[scaled\\] by \\*two\\*.\n\nArgs:\n&nbsp;&nbsp;&nbsp;&nbsp;x: the value\\_name, see &lt;b&gt;";
    expect(normalizeHover(md(pyright), URI, ctx).text).toBe(
      "(function) def documented(x: int) -> int\n---\nReturn x [scaled] by *two*.\n\nArgs:\n    x: the value_name, see <b>",
    );
    const gopls = `\`\`\`go\nfunc (r *Rect) Scale(k int)\n\`\`\`\n\n---\n\nScale, see [Rect.Area](file://${ROOT}/shapes/shapes.go#16,15) and [Println](file:///usr/lib/go/src/fmt/print.go#313,6).\n\n### Heading\n\nUses \\\`backticks\\\` and a\\_b.`;
    expect(normalizeHover(md(gopls), URI, ctx).text).toBe(
      "func (r *Rect) Scale(k int)\n\n---\n\nScale, see Rect.Area and Println.\n\nHeading\n\nUses `backticks` and a_b.",
    );
    const clangd =
      "### function `manhattan`\n\n---\n→ `int`\n\n---\n```cpp\nint manhattan(struct point a)\n```";
    expect(normalizeHover(md(clangd), URI, ctx).text).toBe(
      "function `manhattan`\n\n---\n→ `int`\n\n---\nint manhattan(struct point a)",
    );
    // a file URI as text: workspace-relative inside the root, the file's name outside
    const uris = `defined in file://${ROOT}/src/a.ts#L3 and file:///usr/include/stdio.h.`;
    expect(normalizeHover(md(uris), URI, ctx).text).toBe("defined in src/a.ts and stdio.h.");
  });

  test("paths in the text: workspace-relative under the root; a path line elsewhere, its name", () => {
    const md = (value: string): Hover => ({ contents: { kind: "markdown", value } });
    // clangd's hover on an #include line
    expect(normalizeHover(md(`\`geometry.h\`\n\n---\n${ROOT}/geometry.h`), URI, ctx).text).toBe(
      "`geometry.h`\n\n---\ngeometry.h",
    );
    expect(normalizeHover(md("`stdio.h`\n\n---\n/usr/include/stdio.h"), URI, ctx).text).toBe(
      "`stdio.h`\n\n---\nstdio.h",
    );
    // inside prose: workspace paths relative, the root itself "."; other paths stay
    expect(
      normalizeHover(md(`see ${ROOT}/src/a.ts, ${ROOT} and '/dev/null'; ${ROOT}x`), URI, ctx).text,
    ).toBe(`see src/a.ts, . and '/dev/null'; ${ROOT}x`);
    // a line with one absolute path is renamed only when it is nothing but a path
    expect(
      normalizeHover({ contents: { language: "c", value: "/**\n/usr/x.h" } }, URI, ctx).text,
    ).toBe("/**\nx.h");
  });
});
