import { describe, expect, test } from "bun:test";
import { isFenceLine, markdownToText } from "../../../src/normalize/markdown.ts";

/** File URIs named the way hover.ts names them, for the tests: the path's last segment. */
const named = (uri: string) => `<${uri.slice(uri.lastIndexOf("/") + 1)}>`;
const text = (md: string) => markdownToText(md, named);

describe("markdownToText", () => {
  test("character references: &nbsp; indentation, &lt; &gt; &amp;, numeric ones", () => {
    expect(text("&nbsp;&nbsp;x: &lt;b&gt; &amp; &quot;q&quot; &#39;a&#39; &#x1F600;")).toBe(
      "  x: <b> & \"q\" 'a' 😀",
    );
    // unknown names, a missing semicolon and a surrogate stay or become U+FFFD
    expect(text("&nosuch; &amp &#xD800;")).toBe("&nosuch; &amp \uFFFD");
  });

  test("backslash escapes become their character; other backslashes stay", () => {
    expect(text("Return x \\[scaled\\] by \\*two\\*, a\\_b, \\`tick\\`")).toBe(
      "Return x [scaled] by *two*, a_b, `tick`",
    );
    expect(text("C:\\path a\\b \\\\")).toBe("C:\\path a\\b \\");
  });

  test("headers lose their marks, closing sequences too; `#` inside text stays", () => {
    expect(text("### function `manhattan`\n# Examples #\n#hashtag\nC# and #5\n####### seven")).toBe(
      "function `manhattan`\nExamples\n#hashtag\nC# and #5\n####### seven",
    );
  });

  test("fenced code stays as it is: no escapes, headers or links resolved inside", () => {
    const md = "```rust\n# hidden\nlet v = a\\[0\\]; // [x](y) &amp;\n```\nafter &amp;";
    expect(text(md)).toBe("# hidden\nlet v = a\\[0\\]; // [x](y) &amp;\nafter &");
    // a fence closes only with its own character and at least its length
    expect(text("````\n```\n~~~\n````\nx")).toBe("```\n~~~\nx");
  });

  test("code spans keep their text and backticks; nothing inside them is resolved", () => {
    expect(text("use `a\\[0\\] &amp; [x](y)` and ``b`c``")).toBe(
      "use `a\\[0\\] &amp; [x](y)` and ``b`c``",
    );
    expect(text("an unpaired ` backtick")).toBe("an unpaired ` backtick");
  });

  test("links and images become their text, the target dropped", () => {
    expect(
      text(
        "see [Rect.Area](file:///tmp/x/shapes.go#16,15) and [fmt.Println](https://pkg.go.dev/fmt#Println)",
      ),
    ).toBe("see Rect.Area and fmt.Println");
    expect(text("![logo](a.png \"Logo\") [t](<a b> 'title') [x]( y )")).toBe("logo t x");
    expect(text("[a [nested] text](u) [not a link] [x](unclosed")).toBe(
      "a [nested] text [not a link] [x](unclosed",
    );
  });

  test("reference links resolve against definitions anywhere, which are dropped", () => {
    const md =
      "Creates a [`Vec`] or [a vec][`Vec`] or [`Vec`][]; [unknown] stays.\n\n[`Vec`]: https://doc.rust-lang.org/x.html";
    expect(text(md)).toBe("Creates a `Vec` or a vec or `Vec`; [unknown] stays.\n");
  });

  test("file URIs in text and autolinks are named by the caller", () => {
    expect(text("at file:///root/ws/a.ts#L3, <file:///root/ws/b.ts> or <https://x.dev/p>")).toBe(
      "at <a.ts#L3>, <b.ts> or https://x.dev/p",
    );
  });

  test("isFenceLine: three or more, an info string, nothing else", () => {
    expect(isFenceLine("```")).toBe(true);
    expect(isFenceLine("  ~~~~ c++")).toBe(true);
    expect(isFenceLine("``")).toBe(false);
    expect(isFenceLine("``` not an info string")).toBe(false);
  });
});
