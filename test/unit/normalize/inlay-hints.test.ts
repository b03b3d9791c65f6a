import { describe, expect, test } from "bun:test";
import { labelText, normalizeInlayHints } from "../../../src/normalize/inlay-hints.ts";
import { fileUri, fixtureContext } from "../../support/normalize-context.ts";

const URI = fileUri("a.ts");
const TEXT = "const 🦀x = f(1, 2);\nlet y = g();\n";
const at = (line: number, character: number) => ({ line, character });

describe("labelText", () => {
  test("a string, or the parts' values joined", () => {
    expect(labelText(": number")).toBe(": number");
    expect(labelText([{ value: ": " }, { value: "Shape", location: {} }, { value: "[]" }])).toBe(
      ": Shape[]",
    );
  });
  test("anything else is malformed", () => {
    for (const bad of [undefined, null, 3, [{ value: 1 }], [null], { value: "x" }]) {
      expect(labelText(bad)).toBeUndefined();
    }
  });
});

describe("normalizeInlayHints", () => {
  const { ctx } = fixtureContext({ "a.ts": TEXT });

  test("client positions (code points after the emoji), kinds by name, sorted by position then text", () => {
    const raw = [
      { position: at(1, 5), label: ": number", kind: 1, paddingLeft: true },
      { position: at(0, 16), label: "b:", kind: 2 },
      { position: at(0, 13), label: [{ value: "a" }, { value: ":" }], kind: 2 },
      { position: at(0, 8), label: ": number", kind: 1 },
      { position: at(0, 8), label: ": any" },
      { position: at(0, 8), label: "= 3", kind: 7 },
    ];
    expect(normalizeInlayHints(raw, URI, ctx)).toEqual([
      { line: 1, column: 8, text: ": any" },
      { line: 1, column: 8, kind: "type", text: ": number" },
      { line: 1, column: 8, text: "= 3" },
      { line: 1, column: 13, kind: "parameter", text: "a:" },
      { line: 1, column: 16, kind: "parameter", text: "b:" },
      { line: 2, column: 6, kind: "type", text: ": number" },
    ]);
  });

  test("canonical whatever the server's order", () => {
    const raw = [
      { position: at(1, 5), label: "x" },
      { position: at(0, 1), label: "y" },
      { position: at(0, 1), label: "a" },
    ];
    const once = normalizeInlayHints(raw, URI, ctx);
    expect(normalizeInlayHints([...raw].reverse(), URI, ctx)).toEqual(once);
    expect(once.map((h) => h.text)).toEqual(["a", "y", "x"]);
  });

  test("a hostile answer: no list is no hints; malformed items are dropped, not thrown", () => {
    for (const raw of [null, undefined, "hints", { position: at(0, 0), label: "x" }, 42]) {
      expect(normalizeInlayHints(raw, URI, ctx)).toEqual([]);
    }
    const raw = [
      null,
      7,
      { label: "no position" },
      { position: at(-1, 0), label: "negative" },
      { position: { line: 0.5, character: 0 }, label: "fraction" },
      { position: at(0, 0) },
      { position: at(0, 0), label: [{ value: 3 }] },
      { position: at(0, 0), label: "kept" },
    ];
    expect(normalizeInlayHints(raw, URI, ctx)).toEqual([{ line: 1, column: 1, text: "kept" }]);
  });
});
