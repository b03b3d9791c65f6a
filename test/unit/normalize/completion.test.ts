import { describe, expect, test } from "bun:test";
import { normalizeCompletion, withDocumentation } from "../../../src/normalize/completion.ts";
import { fileUri, fixtureContext, r, range, shuffled } from "../../support/normalize-context.ts";

const URI = fileUri("a.ts");
// "🎯" is two UTF-16 units, one code point: ranges after it differ by one column
const { ctx } = fixtureContext({ "a.ts": "/*🎯*/ obj.ar\n" });
const AT = { line: 0, character: 11 };

const complete = (answer: unknown) => normalizeCompletion(answer, AT, URI, ctx);
const labels = (answer: unknown) => (complete(answer)?.entries ?? []).map((e) => e.out.label);

describe("normalizeCompletion", () => {
  test("order: sortText (else label), then label, kind, insert text — whatever the server's order", () => {
    const items = [
      { label: "b", sortText: "1" },
      { label: "a", sortText: "2" },
      { label: "c" },
      { label: "a", sortText: "1", kind: 3 },
      { label: "a", sortText: "1", kind: 2 },
      { label: "a", sortText: "1", kind: 2, insertText: "a()" },
    ];
    const expected = ["a", "a", "a", "b", "a", "c"];
    for (const seed of [1, 2, 3]) expect(labels(shuffled(items, seed))).toEqual(expected);
    const kinds = complete(items)?.entries.map((e) => e.out);
    expect(kinds?.slice(0, 3)).toEqual([
      { label: "a", kind: "function", insert: "a" },
      { label: "a", kind: "method", insert: "a" },
      { label: "a", kind: "method", insert: "a()" },
    ]);
  });

  test("item shape: kind name, detail, label details, insert from edit, insertText or label", () => {
    const answer = {
      isIncomplete: true,
      items: [
        {
          label: "area",
          kind: 2,
          detail: "(): number",
          labelDetails: { detail: "()", description: "Shape" },
          textEdit: { range: r(0, 11, 0, 13), newText: "area" },
        },
        { label: "side", kind: 5, insertText: "side", textEdit: undefined },
        { label: "x", kind: 99, textEdit: { range: r(0, 11, 0, 11), newText: "x" } },
        { label: "y", detail: "" },
      ],
    };
    const got = complete(answer);
    expect(got?.isIncomplete).toBe(true);
    expect(got?.entries.map((e) => e.out)).toEqual([
      {
        label: "area",
        kind: "method",
        detail: "(): number",
        label_details: { detail: "()", description: "Shape" },
        insert: "area",
        // the edit covers `ar` before the cursor: code points after the emoji
        range: range(1, 11, 1, 13),
      },
      { label: "side", kind: "field", insert: "side" },
      // an edit at the cursor alone has no range
      { label: "x", kind: "unknown", insert: "x" },
      { label: "y", insert: "y" },
    ]);
  });

  test("snippets become the plain text they insert", () => {
    const got = complete([{ label: "f", insertTextFormat: 2, insertText: "f($" + "{1:a})$0" }]);
    expect(got?.entries[0]?.out.insert).toBe("f(a)");
  });

  test("the list's itemDefaults: edit range, insert format and data", () => {
    const answer = {
      isIncomplete: false,
      itemDefaults: { editRange: r(0, 11, 0, 13), insertTextFormat: 2, data: { id: 7 } },
      items: [
        { label: "area", textEditText: "area()$0" },
        { label: "own", insertTextFormat: 1, insertText: "$own", data: { id: 1 } },
      ],
    };
    const [area, own] = complete(answer)?.entries ?? [];
    expect(area?.out).toEqual({
      label: "area",
      insert: "area()",
      range: range(1, 11, 1, 13),
    });
    expect(area?.raw.data).toEqual({ id: 7 });
    expect(own?.out.insert).toBe("$own");
    expect(own?.raw.data).toEqual({ id: 1 });
  });

  test("an InsertReplaceEdit: its insert range", () => {
    const edit = { newText: "area", insert: r(0, 11, 0, 13), replace: r(0, 11, 0, 14) };
    const got = complete([{ label: "area", textEdit: edit }]);
    expect(got?.entries[0]?.out.range).toEqual(range(1, 11, 1, 13));
  });

  test("untrusted answers: malformed items dropped, no list at all undefined, null empty", () => {
    const items = [
      { label: 5 },
      null,
      "x",
      { label: "bad edit", textEdit: { newText: "x" } },
      { label: "no text", textEdit: { range: r(0, 1, 0, 2) } },
      { label: "ok" },
    ];
    expect(labels(items)).toEqual(["ok"]);
    expect(complete(null)).toEqual({ entries: [], isIncomplete: false });
    expect(complete("nonsense")).toBeUndefined();
    expect(complete({ items: 3 })).toBeUndefined();
  });
});

describe("withDocumentation", () => {
  const [entry] = complete([{ label: "area", detail: "d", documentation: "raw" }])?.entries ?? [];
  if (entry === undefined) throw new Error("no entry");

  test("the resolved item's documentation as plain text, its detail where it gives one", () => {
    const resolved = {
      label: "area",
      detail: "(method) area(): number",
      documentation: { kind: "markdown", value: "The **area** of `x`, see [docs](https://x)." },
    };
    expect(withDocumentation(entry, resolved, ctx)).toEqual({
      label: "area",
      detail: "(method) area(): number",
      insert: "area",
      documentation: "The **area** of `x`, see docs.",
    });
  });

  test("not resolved: the item's own documentation; a string is plain text", () => {
    expect(withDocumentation(entry, undefined, ctx)).toEqual({
      label: "area",
      detail: "d",
      insert: "area",
      documentation: "raw",
    });
    const [plain] = complete([{ label: "p", documentation: "# not a header" }])?.entries ?? [];
    if (plain === undefined) throw new Error("no entry");
    expect(withDocumentation(plain, null, ctx).documentation).toBe("# not a header");
  });
});
