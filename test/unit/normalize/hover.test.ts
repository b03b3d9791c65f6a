import { describe, expect, test } from "bun:test";
import type { Hover } from "vscode-languageserver-protocol";
import { normalizeHover } from "../../../src/normalize/hover.ts";
import { fileUri, fixtureContext, ROOT, r, range } from "../../support/normalize-context.ts";

const URI = fileUri("h.py");
const { ctx } = fixtureContext({ "h.py": "def f😀(): pass\n" });
const hovered = (hover: Hover | null | undefined) => normalizeHover(hover, URI, ctx);
const md = (value: string): Hover => ({ contents: { kind: "markdown", value } });

describe("normalizeHover", () => {
  test("markdown: fences dropped, content kept, CRLF and trailing spaces cleaned", () => {
    const hover: Hover = {
      contents: {
        kind: "markdown",
        value: "```python\r\ndef f(): ...  \r\n```\r\n---\r\nDocs.  \r\n\r\n",
      },
      range: r(0, 4, 0, 7),
    };
    expect(hovered(hover)).toEqual({
      text: "def f(): ...\n---\nDocs.",
      range: range(1, 5, 1, 7),
    });
  });

  test("MarkedString[]: parts joined by a blank line, empty parts dropped", () => {
    const hover: Hover = {
      contents: ["```python\nx: int\n```", { language: "python", value: "def g()" }, "", "text"],
    };
    expect(hovered(hover)).toEqual({
      text: "x: int\n\ndef g()\n\ntext",
      range: null,
    });
  });

  test("plaintext keeps backtick lines; lone CR becomes LF", () => {
    const hover: Hover = { contents: { kind: "plaintext", value: "```\rint x\r" } };
    expect(hovered(hover).text).toBe("```\nint x");
  });

  test("a single MarkedString and a code block object", () => {
    expect(hovered({ contents: "**bold**" }).text).toBe("**bold**");
    expect(hovered({ contents: { language: "c", value: "int x;\n" } }).text).toBe("int x;");
  });

  test("no content → text null", () => {
    expect(hovered(null)).toEqual({ text: null, range: null });
    expect(hovered(undefined)).toEqual({ text: null, range: null });
    expect(hovered({ contents: [] })).toEqual({ text: null, range: null });
    expect(hovered({ contents: { kind: "markdown", value: "```\n```\n  " } }).text).toBeNull();
  });

  test("what pyright, gopls and clangd send reads as plain text, with no machine path", () => {
    const pyright =
      "```python\n(function) def documented(x: int) -> int\n```\n---\nReturn x \\[scaled\\] by \\*two\\*.\n\nArgs:\n&nbsp;&nbsp;&nbsp;&nbsp;x: the value\\_name, see &lt;b&gt;";
    expect(hovered(md(pyright)).text).toBe(
      "(function) def documented(x: int) -> int\n---\nReturn x [scaled] by *two*.\n\nArgs:\n    x: the value_name, see <b>",
    );
    const gopls = `\`\`\`go\nfunc (r *Rect) Scale(k int)\n\`\`\`\n\n---\n\nScale, see [Rect.Area](file://${ROOT}/shapes/shapes.go#16,15) and [Println](file:///usr/lib/go/src/fmt/print.go#313,6).\n\n### Heading\n\nUses \\\`backticks\\\` and a\\_b.`;
    expect(hovered(md(gopls)).text).toBe(
      "func (r *Rect) Scale(k int)\n\n---\n\nScale, see Rect.Area and Println.\n\nHeading\n\nUses `backticks` and a_b.",
    );
    const clangd =
      "### function `manhattan`\n\n---\n→ `int`\n\n---\n```cpp\nint manhattan(struct point a)\n```";
    expect(hovered(md(clangd)).text).toBe(
      "function `manhattan`\n\n---\n→ `int`\n\n---\nint manhattan(struct point a)",
    );
    // a file URI as text: workspace-relative inside the root, the file's name outside
    const uris = `defined in file://${ROOT}/src/a.ts#L3 and file:///usr/include/stdio.h.`;
    expect(hovered(md(uris)).text).toBe("defined in src/a.ts and stdio.h.");
  });

  test("paths in the text: workspace-relative under the root; a path line elsewhere, its name", () => {
    // clangd's hover on an #include line
    expect(hovered(md(`\`geometry.h\`\n\n---\n${ROOT}/geometry.h`)).text).toBe(
      "`geometry.h`\n\n---\ngeometry.h",
    );
    expect(hovered(md("`stdio.h`\n\n---\n/usr/include/stdio.h")).text).toBe(
      "`stdio.h`\n\n---\nstdio.h",
    );
    // inside prose: workspace paths relative, the root itself "."; other paths stay
    expect(hovered(md(`see ${ROOT}/src/a.ts, ${ROOT} and '/dev/null'; ${ROOT}x`)).text).toBe(
      `see src/a.ts, . and '/dev/null'; ${ROOT}x`,
    );
    // a line with one absolute path is renamed only when it is nothing but a path
    expect(hovered({ contents: { language: "c", value: "/**\n/usr/x.h" } }).text).toBe("/**\nx.h");
  });
});
