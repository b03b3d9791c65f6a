import { describe, expect, test } from "bun:test";
import type { Location, LocationLink } from "vscode-languageserver-protocol";
import { canonicalJson } from "../../../src/normalize/cap.ts";
import { normalizeLocations, withoutVanished } from "../../../src/normalize/locations.ts";
import type { Loc } from "../../../src/normalize/types.ts";
import { fileUri, fixtureContext, r, shuffled } from "../../support/normalize-context.ts";

const FILES = { "a.ts": "let x = 1;\nfoo();\n", "b.ts": "b\n" };
const { ctx } = fixtureContext(FILES);

describe("normalizeLocations", () => {
  test("Location and LocationLink give the same output", () => {
    const location: Location = { uri: fileUri("a.ts"), range: r(1, 0, 1, 3) };
    const link: LocationLink = {
      targetUri: fileUri("a.ts"),
      targetRange: r(0, 0, 1, 6),
      targetSelectionRange: r(1, 0, 1, 3),
      originSelectionRange: r(0, 4, 0, 5),
    };
    const expected = [{ file: "a.ts", line: 2, column: 1, end_line: 2, end_column: 4 }];
    expect(normalizeLocations([location], ctx)).toEqual(expected);
    expect(normalizeLocations(location, ctx)).toEqual(expected);
    expect(normalizeLocations([link], ctx)).toEqual(expected);
  });

  test("a link without a selection range uses its target range", () => {
    const link = { targetUri: fileUri("b.ts"), targetRange: r(0, 0, 0, 1) } as LocationLink;
    expect(normalizeLocations([link], ctx)).toEqual([
      { file: "b.ts", line: 1, column: 1, end_line: 1, end_column: 2 },
    ]);
  });

  test("deduplicated, canonical order whatever the input order", () => {
    const input: Location[] = [
      { uri: "untitled:z", range: r(0, 0, 0, 1) },
      { uri: "file:///abs/lib.ts", range: r(2, 0, 2, 3) },
      { uri: fileUri("b.ts"), range: r(0, 0, 0, 1) },
      { uri: fileUri("a.ts"), range: r(1, 0, 1, 3) },
      { uri: fileUri("a.ts"), range: r(0, 4, 0, 5) },
      { uri: fileUri("a.ts"), range: r(1, 0, 1, 3) },
    ];
    const expected = [
      { file: "a.ts", line: 1, column: 5, end_line: 1, end_column: 6 },
      { file: "a.ts", line: 2, column: 1, end_line: 2, end_column: 4 },
      { file: "b.ts", line: 1, column: 1, end_line: 1, end_column: 2 },
      { file: "/abs/lib.ts", line: 3, column: 1, end_line: 3, end_column: 4 },
      { uri: "untitled:z", line: 1, column: 1, end_line: 1, end_column: 2 },
    ];
    expect(normalizeLocations(input, ctx)).toEqual(expected);
    const bytes = canonicalJson(expected);
    for (const seed of [1, 2, 3, 4, 5]) {
      expect(canonicalJson(normalizeLocations(shuffled(input, seed), ctx))).toBe(bytes);
    }
  });

  test("empty and malformed results", () => {
    expect(normalizeLocations(null, ctx)).toEqual([]);
    expect(normalizeLocations(undefined, ctx)).toEqual([]);
    const garbage = [null, { uri: 5 }, { targetUri: "file:///x" }, { uri: "file:///y" }];
    expect(normalizeLocations(garbage as unknown as Location[], ctx)).toEqual([]);
  });
});

describe("withoutVanished", () => {
  test("items in files that no longer exist are dropped and counted; non-file URIs kept", () => {
    const asked: string[] = [];
    const items: Loc[] = [
      { file: "a.ts", line: 1, column: 1, end_line: 1, end_column: 2 },
      { file: "gone.ts", line: 1, column: 1, end_line: 1, end_column: 2 },
      { file: "gone.ts", line: 2, column: 1, end_line: 2, end_column: 2 },
      { uri: "untitled:x", line: 1, column: 1, end_line: 1, end_column: 2 },
    ];
    const { kept, vanished } = withoutVanished(items, (file) => {
      asked.push(file);
      return file !== "gone.ts";
    });
    expect(kept).toEqual([items[0] as Loc, items[3] as Loc]);
    expect(vanished).toBe(2);
    // each file looked at once
    expect(asked).toEqual(["a.ts", "gone.ts"]);
  });
});
