/** ResultTooLarge's help (SPEC §4.4): the summary of where a list's items are. */
import { expect, test } from "bun:test";
import { countBy, MAX_SUMMARY_GROUPS, summarize } from "../../../src/normalize/too-large.ts";

test("counts per file, largest first then by name, at most 20 groups", () => {
  const files = Array.from({ length: 30 }, (_, i) => `f${String(i).padStart(2, "0")}`);
  const items = files.flatMap((f, i) => Array.from({ length: (i % 3) + 1 }, () => ({ file: f })));
  const s = summarize(items);
  expect(s.files).toBe(30);
  const byFile = s.by_file as { file: string; count: number }[];
  expect(byFile.length).toBe(MAX_SUMMARY_GROUPS);
  expect(byFile.slice(0, 3)).toEqual([
    { file: "f02", count: 3 },
    { file: "f05", count: 3 },
    { file: "f08", count: 3 },
  ]);
  expect(byFile.every((g, i) => i === 0 || (byFile[i - 1]?.count ?? 0) >= g.count)).toBe(true);
});

test("a non-file uri counts as its own group; items without files are counted by kind", () => {
  expect(summarize([{ uri: "untitled:1" }, { file: "a" }, { uri: "untitled:1" }])).toEqual({
    files: 2,
    by_file: [
      { file: "untitled:1", count: 2 },
      { file: "a", count: 1 },
    ],
  });
  expect(summarize([{ kind: "class" }, { kind: "function" }, { kind: "function" }])).toEqual({
    by_kind: [
      { kind: "function", count: 2 },
      { kind: "class", count: 1 },
    ],
  });
  expect(summarize([{ title: "x" }])).toEqual({});
  expect(countBy([], "file")).toEqual([]);
});
