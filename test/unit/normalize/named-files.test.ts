/** The files a server's answer names (SPEC §5.1): what a call loads line tables for. */
import { expect, test } from "bun:test";
import { namedUris } from "../../../src/normalize/named-files.ts";

const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };

test("locations, links, symbols, call items and workspace edits, each URI once", () => {
  expect(
    namedUris([
      { uri: "file:///a", range },
      { uri: "file:///b", range },
      { uri: "file:///a", range },
    ]),
  ).toEqual(["file:///a", "file:///b"]);
  expect(
    namedUris([{ targetUri: "file:///t", targetRange: range, originSelectionRange: range }]),
  ).toEqual(["file:///t"]);
  expect(namedUris([{ name: "s", location: { uri: "file:///s", range } }])).toEqual(["file:///s"]);
  expect(namedUris([{ from: { uri: "file:///caller", range }, fromRanges: [range] }])).toEqual([
    "file:///caller",
  ]);
  expect(
    namedUris({
      changes: { "file:///x": [{ range, newText: "" }] },
      documentChanges: [{ textDocument: { uri: "file:///y", version: 1 }, edits: [] }],
    }),
  ).toEqual(["file:///x", "file:///y"]);
  expect(
    namedUris({
      uri: "file:///d",
      push: [{ range, relatedInformation: [{ location: { uri: "file:///r", range } }] }],
    }),
  ).toEqual(["file:///d", "file:///r"]);
});

test("anything else names nothing; an answer nested past any result shape is not walked", () => {
  expect(namedUris(null)).toEqual([]);
  expect(namedUris("file:///a")).toEqual([]);
  expect(namedUris([{ uri: 7 }, { contents: "x" }])).toEqual([]);
  let deep: unknown = { uri: "file:///deep" };
  for (let i = 0; i < 100_000; i++) deep = [deep];
  expect(namedUris(deep)).toEqual([]);
  expect(namedUris([[[{ uri: "file:///shallow" }]]])).toEqual(["file:///shallow"]);
});
