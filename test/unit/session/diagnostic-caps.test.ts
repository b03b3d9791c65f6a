/**
 * What is kept of one diagnostic (src/session/diagnostic-caps.ts, SPEC §8.2): the LSP
 * fields only, texts cut to their caps, notes and tags bounded, `data` kept while small
 * and shallow, a diagnostic without a range not kept; the weight grows with what is kept.
 */
import { describe, expect, test } from "bun:test";
import {
  DIAGNOSTIC_CAPS,
  keptDiagnostic,
  measureData,
} from "../../../src/session/diagnostic-caps.ts";

const range = { start: { line: 1, character: 2 }, end: { line: 1, character: 5 } };
const note = (message: string, uri = "file:///w/b.ts") => ({ location: { uri, range }, message });

describe("the copy", () => {
  test("an ordinary diagnostic is kept whole, field for field", () => {
    const d = {
      range,
      severity: 1,
      code: "E0308",
      codeDescription: { href: "https://example.invalid/E0308" },
      source: "rustc",
      message: "mismatched types",
      tags: [1],
      relatedInformation: [note("expected here")],
      data: { rendered: "error[E0308]: mismatched types", fixes: [{ title: "x" }] },
    };
    const kept = keptDiagnostic(d);
    expect(kept?.diagnostic as unknown).toEqual(d);
    expect(kept?.diagnostic).not.toBe(d);
    expect(kept?.cut).toBe(false);
    expect(kept?.dataDropped).toBe(false);
  });

  test("unknown fields are left behind; junk coordinates read as 0, as the normalizer reads them", () => {
    const kept = keptDiagnostic({
      range: { start: { line: "x", character: 2 }, end: { line: 1 } },
      message: 7,
      extra: "e".repeat(1 << 20),
    });
    expect(kept?.diagnostic).toEqual({
      range: { start: { line: 0, character: 2 }, end: { line: 1, character: 0 } },
      message: "",
    });
  });

  test("no object or no range: not kept", () => {
    for (const raw of [null, 3, "d", [], { message: "m" }, { range: "r", message: "m" }]) {
      expect(keptDiagnostic(raw)).toBeUndefined();
    }
  });
});

describe("the caps", () => {
  test("texts cut to their caps, with an ellipsis", () => {
    const long = (n: number) => "t".repeat(n + 10);
    const kept = keptDiagnostic({
      range,
      message: long(DIAGNOSTIC_CAPS.message),
      source: long(DIAGNOSTIC_CAPS.label),
      code: long(DIAGNOSTIC_CAPS.label),
      relatedInformation: [note(long(DIAGNOSTIC_CAPS.relatedMessage))],
    });
    const d = kept?.diagnostic as unknown as Record<string, string>;
    expect(d.message).toHaveLength(DIAGNOSTIC_CAPS.message + 1);
    expect(d.message?.endsWith("…")).toBe(true);
    expect(d.source).toHaveLength(DIAGNOSTIC_CAPS.label + 1);
    expect(d.code).toHaveLength(DIAGNOSTIC_CAPS.label + 1);
    expect(kept?.diagnostic.relatedInformation?.[0]?.message).toHaveLength(
      DIAGNOSTIC_CAPS.relatedMessage + 1,
    );
    expect(kept?.cut).toBe(true);
  });

  test("a MarkupContent message keeps its kind, its value cut", () => {
    const kept = keptDiagnostic({
      range,
      message: { kind: "markdown", value: "v".repeat(DIAGNOSTIC_CAPS.message * 2) },
    });
    const m = kept?.diagnostic.message as unknown as { kind: string; value: string };
    expect(m.kind).toBe("markdown");
    expect(m.value).toHaveLength(DIAGNOSTIC_CAPS.message + 1);
  });

  test("notes: the first ones, those with a location; an over-long URI leaves its note out", () => {
    const many = Array.from({ length: 100 }, (_, i) => note(`n${i}`));
    const kept = keptDiagnostic({
      range,
      message: "m",
      relatedInformation: [
        note("long uri", `file:///${"u".repeat(DIAGNOSTIC_CAPS.uri)}`),
        { message: "no location" },
        ...many,
      ],
    });
    const related = kept?.diagnostic.relatedInformation ?? [];
    expect(related.map((r) => r.message)).toEqual(
      many.slice(0, DIAGNOSTIC_CAPS.related - 2).map((r) => r.message),
    );
    expect(kept?.cut).toBe(true);
  });

  test("tags: numbers only, at most the cap; an over-long href is left out", () => {
    const kept = keptDiagnostic({
      range,
      message: "m",
      tags: ["x", ...Array(50).fill(1)],
      codeDescription: { href: "h".repeat(DIAGNOSTIC_CAPS.uri + 1) },
    });
    expect(kept?.diagnostic.tags).toHaveLength(DIAGNOSTIC_CAPS.tags);
    expect(kept?.diagnostic.codeDescription).toBeUndefined();
  });

  test("data within the caps is kept as it is; too large or too deep, left out", () => {
    const small = { a: [1, 2, 3], b: "x".repeat(1000) };
    expect(keptDiagnostic({ range, message: "m", data: small })?.diagnostic.data).toBe(small);
    const wide = Array(DIAGNOSTIC_CAPS.data).fill({});
    const big = "x".repeat(DIAGNOSTIC_CAPS.data);
    let deep: unknown = 1;
    for (let i = 0; i <= DIAGNOSTIC_CAPS.dataDepth; i++) deep = [deep];
    for (const data of [wide, big, deep]) {
      const kept = keptDiagnostic({ range, message: "m", data });
      expect(kept?.dataDropped).toBe(true);
      expect(kept?.diagnostic).not.toHaveProperty("data");
    }
  });
});

describe("the weight", () => {
  test("measureData: the JSON size, stopping past the cap (a wide value costs the cap, not its width)", () => {
    const json = measureData({ a: [1, "bc"] })?.json as number;
    expect(json).toBeGreaterThanOrEqual(JSON.stringify({ a: [1, "bc"] }).length);
    expect(json).toBeLessThan(JSON.stringify({ a: [1, "bc"] }).length + 4);
    const huge = Array(5_000_000).fill(0);
    const t0 = performance.now();
    expect(measureData(huge)).toBeUndefined();
    expect(performance.now() - t0).toBeLessThan(100);
  });

  test("grows with the texts, notes and data kept", () => {
    const base = keptDiagnostic({ range, message: "m" })?.weight as number;
    const texty = keptDiagnostic({ range, message: "m".repeat(10_000) })?.weight as number;
    const noted = keptDiagnostic({ range, message: "m", relatedInformation: [note("n")] })
      ?.weight as number;
    const data = keptDiagnostic({ range, message: "m", data: Array(1000).fill({}) })
      ?.weight as number;
    expect(texty - base).toBeGreaterThanOrEqual(19_000);
    expect(noted - base).toBeGreaterThan(300);
    expect(data - base).toBeGreaterThan(50_000);
  });
});
