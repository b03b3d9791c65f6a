/**
 * Dropping duplicates after a canonical sort (src/normalize/order.ts): equal neighbours
 * collapse to the first, by the comparator's equality, not by identity; and the written-out
 * sorts give exactly their comparators' order and equality (compareLoc, compareWorkspaceSymbol,
 * compareSymbolNode).
 */
import { expect, test } from "bun:test";
import {
  compareLoc,
  compareWorkspaceSymbol,
  sortedUniqueLocs,
  sortedUniqueWorkspaceSymbols,
  withoutAdjacentDuplicates,
} from "../../../src/normalize/order.ts";
import type { Loc, WorkspaceSymbolOut } from "../../../src/normalize/types.ts";
import { Prng } from "../../support/prng.ts";

const loc = (file: string, line: number) => ({
  file,
  line,
  column: 1,
  end_line: line,
  end_column: 2,
});

test("equal neighbours collapse to one; distinct items all stay, in order", () => {
  const sorted = [loc("a", 1), loc("a", 1), loc("a", 3), loc("b", 2), loc("b", 2)];
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

/** Locations drawn to collide: few files (prefixes of each other, absolute, URIs), small numbers. */
function randomLocs(rng: Prng): Loc[] {
  const targets = [
    { file: "a" },
    { file: "a/b" },
    { file: "a b" },
    { file: "ä" },
    { file: "/abs/x" },
    { file: "/abs" },
    { uri: "untitled:1" },
    { uri: "a" },
  ];
  return Array.from({ length: rng.int(0, 60) }, () => ({
    ...rng.pick(targets),
    line: rng.int(1, 3),
    column: rng.int(1, 3),
    end_line: rng.int(1, 3),
    end_column: rng.int(1, 3),
  }));
}

test("sortedUniqueLocs is compareLoc's sort and de-duplication, on 2,000 seeded lists", () => {
  for (let run = 0; run < 2000; run++) {
    const rng = new Prng(Prng.derive(13, "sortedUniqueLocs", run));
    const locs = randomLocs(rng);
    const expected = withoutAdjacentDuplicates([...locs].sort(compareLoc), compareLoc);
    const got = sortedUniqueLocs(locs);
    expect(got).toEqual(expected);
    // the kept copy of each group is the first the input had (a stable sort)
    for (const kept of got) expect(locs.find((l) => compareLoc(l, kept) === 0)).toBe(kept);
  }
});

/** Workspace symbols drawn to collide: the targets above, range-less ones, few names. */
function randomSymbols(rng: Prng): WorkspaceSymbolOut[] {
  return randomLocs(rng).map((l) => {
    const head = {
      name: rng.pick(["a", "b", "ab"]),
      kind: rng.pick(["class", "function"]),
      ...(rng.int(0, 2) === 0 ? {} : { container: rng.pick(["", "m", "n"]) }),
    };
    if (rng.int(0, 4) === 0) {
      const { line: _l, column: _c, end_line: _el, end_column: _ec, ...target } = l;
      return { ...head, ...target } as WorkspaceSymbolOut;
    }
    return { ...head, ...l } as WorkspaceSymbolOut;
  });
}

test("sortedUniqueWorkspaceSymbols is compareWorkspaceSymbol's sort and de-duplication, on 2,000 seeded lists", () => {
  for (let run = 0; run < 2000; run++) {
    const rng = new Prng(Prng.derive(13, "sortedUniqueWorkspaceSymbols", run));
    const symbols = randomSymbols(rng);
    const expected = withoutAdjacentDuplicates(
      [...symbols].sort(compareWorkspaceSymbol),
      compareWorkspaceSymbol,
    );
    const got = sortedUniqueWorkspaceSymbols(symbols);
    expect(got).toEqual(expected);
    for (const kept of got) {
      expect(symbols.find((s) => compareWorkspaceSymbol(s, kept) === 0)).toBe(kept);
    }
  }
});
