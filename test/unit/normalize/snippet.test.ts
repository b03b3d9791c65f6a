import { describe, expect, test } from "bun:test";
import { snippetToText } from "../../../src/normalize/snippet.ts";

/** A snippet written with `@` for `$` (a `${` in a plain string reads as a template slip). */
const sn = (text: string) => text.replaceAll("@", "$");

describe("snippetToText", () => {
  test.each([
    ["area()@0", "area()"],
    ["foo(@{1:a}, @{2:b})@0", "foo(a, b)"],
    ["for @{1:i} in @{2:range(@{3:n})}:", "for i in range(n):"],
    ["@{1|one,two,three|}", "one"],
    ["@{1|a\\,b,c|}", "a,b"],
    ["@TM_FILENAME and @{TM_LINE_NUMBER} and @{UNKNOWN:fallback}", " and  and fallback"],
    ["@{TM_FILENAME/(.*)/@{1:/upcase}/}x", "x"],
    ["price: \\@5 \\} \\\\", "price: $5 } \\"],
    ["@{1}done", "done"],
  ])("%p → %p", (snippet, plain) => {
    expect(snippetToText(sn(snippet))).toBe(plain);
  });

  test("what does not parse stays as written", () => {
    const open = sn("cost @ 5, @{ x }, @{1:open");
    expect(snippetToText(open)).toBe(open);
    expect(snippetToText(sn("@{1:a@{2:b}"))).toBe(sn("@{1:ab"));
    expect(snippetToText("a } b")).toBe("a } b");
  });

  test("elements that never close: linear time, the rest as written", () => {
    const hostile = sn("@{1:").repeat(20_000);
    const started = performance.now();
    expect(snippetToText(hostile)).toBe(hostile);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
