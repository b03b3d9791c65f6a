/**
 * Dropping duplicates after a canonical sort (src/normalize/order.ts): equal neighbours
 * collapse to the first, by the comparator's equality, not by identity.
 */
import { expect, test } from "bun:test";
import { compareLoc, sortLocs, withoutAdjacentDuplicates } from "../../../src/normalize/order.ts";

const loc = (file: string, line: number) => ({
  file,
  line,
  column: 1,
  end_line: line,
  end_column: 2,
});

test("equal neighbours collapse to one; distinct items all stay, in order", () => {
  const sorted = sortLocs([loc("b", 2), loc("a", 1), loc("b", 2), loc("a", 1), loc("a", 3)]);
  const out = withoutAdjacentDuplicates(sorted, compareLoc);
  expect(out).toEqual([loc("a", 1), loc("a", 3), loc("b", 2)]);
  expect(out[0]).toBe(sorted[0] as (typeof sorted)[number]); // the first of equal ones is kept
});

test("equality is the comparator's: copies that compare equal are duplicates", () => {
  const byFile = (a: { file: string }, b: { file: string }) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : 0;
  expect(withoutAdjacentDuplicates([loc("a", 1), loc("a", 9), loc("b", 1)], byFile)).toEqual([
    loc("a", 1),
    loc("b", 1),
  ]);
  expect(withoutAdjacentDuplicates([], compareLoc)).toEqual([]);
});
