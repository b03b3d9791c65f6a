import { describe, expect, test } from "bun:test";
import {
  type ActionVouching,
  definitionTargets,
  judgeAction,
  landsOnEdit,
  mentions,
  notLoaded,
  occurrences,
  overlaps,
  uncovered,
  wordAt,
} from "../../../src/apply/complete.ts";
import { incompleteError } from "../../../src/apply/incomplete-errors.ts";

const r = (line: number, from: number, to: number, endLine = line) => ({
  start: { line, character: from },
  end: { line: endLine, character: to },
});

describe("names and their occurrences", () => {
  test("wordAt: the whole word around or ending at the offset; none on punctuation", () => {
    const text = "x = compute(v) + $id_2;";
    expect(wordAt(text, 4)).toBe("compute");
    expect(wordAt(text, 8)).toBe("compute");
    expect(wordAt(text, 11)).toBe("compute"); // just past its end
    expect(wordAt(text, 17)).toBe("$id_2");
    expect(wordAt(text, 15)).toBeUndefined(); // between "+ " and nothing
    expect(wordAt("é𝒳z a", 1)).toBe("é𝒳z"); // astral letters continue a name
    expect(wordAt("", 0)).toBeUndefined();
  });

  test("occurrences: whole words only, at every offset, astral neighbours count as letters", () => {
    const text = "compute(compute_all(recompute)); compute;\n𝒳compute compute𝒳 compute";
    expect(occurrences(text, "compute")).toEqual([0, 33, text.lastIndexOf("compute")]);
    expect(occurrences("a->b a->b", "->")).toEqual([1, 6]); // no boundary on a non-word edge
    expect(occurrences("aaaa", "aa")).toEqual([]); // inside a longer word
    expect(occurrences("x x x", "x", 2)).toEqual([0, 2]); // bounded
    expect(occurrences("x", "")).toEqual([]);
  });

  test("mentions: any name as a whole word", () => {
    expect(mentions("int y = calc(2);", ["compute", "calc"])).toBe(true);
    expect(mentions("int y = calculate(2);", ["calc"])).toBe(false);
  });
});

describe("loaded and covered", () => {
  test("notLoaded: not open, or open with other content; a file gone needs nothing", () => {
    expect(
      notLoaded([
        { abs: "/w/open.c", server: "h1", disk: "h1" },
        { abs: "/w/stale.c", server: "h0", disk: "h1" },
        { abs: "/w/new.c", server: undefined, disk: "h2" },
        { abs: "/w/gone.c", server: "h3", disk: undefined },
      ]),
    ).toEqual(["/w/stale.c", "/w/new.c"]);
  });

  test("overlaps: shared characters, or an empty range at the other's start", () => {
    expect(overlaps(r(1, 2, 5), r(1, 4, 9))).toBe(true);
    expect(overlaps(r(1, 2, 5), r(1, 5, 9))).toBe(false);
    expect(overlaps(r(1, 4, 4), r(1, 4, 9))).toBe(true);
    expect(overlaps(r(0, 9, 2, 1), r(1, 0, 3))).toBe(true); // across lines
    expect(overlaps(r(2, 0, 3), r(1, 0, 3))).toBe(false);
  });

  test("uncovered: the occurrences no edit touches", () => {
    const found = [r(0, 4, 11), r(3, 0, 7), r(5, 2, 9)];
    expect(uncovered(found, [r(0, 4, 11), r(5, 2, 9)])).toEqual([r(3, 0, 7)]);
    expect(uncovered(found, [])).toEqual(found);
  });
});

describe("the server's definition of an occurrence", () => {
  test("definitionTargets: Location, Location[], LocationLink[] (selection first); junk dropped", () => {
    expect(definitionTargets({ uri: "file:///a", range: r(1, 0, 3) })).toEqual([
      { uri: "file:///a", range: r(1, 0, 3) },
    ]);
    expect(
      definitionTargets([
        { targetUri: "file:///b", targetRange: r(0, 0, 9, 4), targetSelectionRange: r(0, 4, 7) },
        { uri: 7, range: r(0, 0, 1) },
        null,
        { uri: "file:///c", range: { start: { line: "x" } } },
      ]),
    ).toEqual([{ uri: "file:///b", range: r(0, 4, 7) }]);
    expect(definitionTargets(null)).toEqual([]);
  });

  test("landsOnEdit: a target inside an edited range of its file", () => {
    const edited = new Map([["/w/util.h", [r(0, 4, 11)]]]);
    expect(landsOnEdit([{ abs: "/w/util.h", range: r(0, 4, 11) }], edited)).toBe(true);
    expect(landsOnEdit([{ abs: "/w/util.h", range: r(2, 4, 11) }], edited)).toBe(false);
    expect(landsOnEdit([{ abs: "/w/other.h", range: r(0, 4, 11) }], edited)).toBe(false);
    expect(landsOnEdit([{ abs: null, range: r(0, 4, 11) }], edited)).toBe(false);
  });
});

describe("the refusal and a handle's judgement", () => {
  test("incompleteError: EditIncomplete, files sorted and bounded, the count, a hint", () => {
    const files = Array.from({ length: 60 }, (_, i) => `/w/f${String(i).padStart(2, "0")}.c`);
    const e = incompleteError("not_loaded", [...files].reverse());
    expect(e.code).toBe("EditIncomplete");
    expect(e.details).toEqual({ reason: "not_loaded", files: files.slice(0, 50), count: 60 });
    expect(e.message).toContain("(and 10 more)");
    expect(e.hint).toStartWith("nothing was written");
    const left = incompleteError("left_out", ["/w/n.c"], {
      occurrences: [{ file: "n.c", line: 2, column: 26 }],
    });
    expect(left.details).toEqual({
      reason: "left_out",
      files: ["/w/n.c"],
      count: 1,
      occurrences: [{ file: "n.c", line: 2, column: 26 }],
    });
  });

  const base: ActionVouching = {
    untrackedAtListing: null,
    unloadedAtListing: [],
    untrackedNow: null,
    changedSince: [],
    targets: ["/w/a.c"],
  };
  const reason = (v: Partial<ActionVouching>) => judgeAction({ ...base, ...v })?.details?.reason;

  test("judgeAction: untracked first, then not loaded, then changed since (targets are the gate's)", () => {
    expect(judgeAction(base)).toBeUndefined();
    expect(reason({ changedSince: ["/w/a.c"] })).toBeUndefined();
    expect(reason({ changedSince: ["/w/a.c", "/w/b.c"] })).toBe("changed_since_listing");
    expect(reason({ unloadedAtListing: ["/w/c.c"], changedSince: ["/w/b.c"] })).toBe("not_loaded");
    expect(
      reason({ untrackedNow: "3 directories are not watched", unloadedAtListing: ["/w/c.c"] }),
    ).toBe("untracked");
    expect(reason({ untrackedAtListing: "more than 4096 files" })).toBe("untracked");
  });
});
