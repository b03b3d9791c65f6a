/** call_hierarchy results (SPEC §4.3): items at their selection, calls merged, canonical order. */
import { describe, expect, test } from "bun:test";
import type { CallHierarchyItem } from "vscode-languageserver-protocol";
import { normalizeCalls, pickCallItem } from "../../../src/normalize/call-hierarchy.ts";
import { fileUri, fixtureContext, ROOT, r, range } from "../../support/normalize-context.ts";

const FILES = {
  "a.ts": "function caller() {\n  target(); target();\n}\n",
  "b.ts": "// 😀😀 function other() { target() }\nfunction other() { target(); }\n",
  "t.ts": "export function target() { helper(); }\n",
};
const { ctx } = fixtureContext(FILES);

function item(
  name: string,
  rel: string,
  line: number,
  from: number,
  to: number,
): CallHierarchyItem {
  return {
    name,
    kind: 12,
    uri: fileUri(rel),
    range: r(line, 0, line + 2, 1),
    selectionRange: r(line, from, line, to),
  };
}

const TARGET = item("target", "t.ts", 0, 16, 22);

describe("pickCallItem", () => {
  test("the first well-formed item in canonical order, at its selection range", () => {
    const picked = pickCallItem([{ name: 3 }, item("z", "t.ts", 0, 16, 22), TARGET], ctx);
    expect(picked?.out).toEqual({
      name: "target",
      kind: "function",
      file: "t.ts",
      ...range(1, 17, 1, 23),
    });
    expect(pickCallItem(null, ctx)).toBeUndefined();
    expect(pickCallItem([], ctx)).toBeUndefined();
  });
});

describe("normalizeCalls", () => {
  test("incoming: callers with their sites in the caller's file; one caller listed twice is merged", () => {
    const caller = item("caller", "a.ts", 0, 9, 15);
    const other = item("other", "b.ts", 1, 9, 14);
    const calls = normalizeCalls(
      [
        { from: other, fromRanges: [r(1, 19, 1, 25)] },
        { from: caller, fromRanges: [r(1, 12, 1, 18)] },
        { from: caller, fromRanges: [r(1, 2, 1, 8), r(1, 12, 1, 18)] },
        { from: { name: "broken" }, fromRanges: [] },
      ],
      "incoming",
      TARGET.uri,
      ctx,
    );
    expect(calls).toEqual([
      {
        name: "caller",
        kind: "function",
        file: "a.ts",
        ...range(1, 10, 1, 16),
        sites: [range(2, 3, 2, 9), range(2, 13, 2, 19)],
      },
      {
        name: "other",
        kind: "function",
        file: "b.ts",
        ...range(2, 10, 2, 15),
        sites: [range(2, 20, 2, 26)],
      },
    ]);
  });

  test("outgoing: callees, with the sites in the item's own file (UTF-16 → code points)", () => {
    const callee = item("helper", "h.ts", 0, 9, 15);
    // the sites are in b.ts, whose line 1 has two astral emoji before the call
    const calls = normalizeCalls(
      [{ to: callee, fromRanges: [r(0, 29, 0, 35)] }],
      "outgoing",
      fileUri("b.ts"),
      ctx,
    );
    expect(calls.map((c) => [c.name, c.sites])).toEqual([["helper", [range(1, 28, 1, 34)]]]);
    expect(normalizeCalls(null, "outgoing", TARGET.uri, ctx)).toEqual([]);
  });
});

test("a module named by its absolute path is named by its result path", () => {
  const module = { ...item("x", "a.ts", 0, 0, 0), name: `${ROOT}/a.ts`, kind: 2 };
  const [call] = normalizeCalls([{ from: module, fromRanges: [] }], "incoming", TARGET.uri, ctx);
  expect(call?.name).toBe("a.ts");
  const other = { ...module, name: "/elsewhere/a.ts" };
  const [kept] = normalizeCalls([{ from: other, fromRanges: [] }], "incoming", TARGET.uri, ctx);
  expect(kept?.name).toBe("/elsewhere/a.ts");
});
