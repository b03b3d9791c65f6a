import { describe, expect, test } from "bun:test";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { canonicalJson } from "../../../src/normalize/cap.ts";
import {
  type DiagnosticOut,
  MAX_RELATED,
  normalizeDiagnostics as normalizeSliced,
  severityName,
} from "../../../src/normalize/diagnostics.ts";
import type { NormalizeContext } from "../../../src/normalize/types.ts";
import { TimeSlices } from "../../../src/time-slice.ts";
import { fileUri, fixtureContext, r, range, shuffled } from "../../support/normalize-context.ts";

const URI = fileUri("d.c");
const FILES = { "d.c": "int main() {\n  return x;\n}\n" };
const { ctx } = fixtureContext(FILES);
const UNDECLARED = "use of undeclared identifier 'x'";

const push: Diagnostic[] = [
  { range: r(1, 9, 1, 10), severity: 1, code: "undeclared", source: "clang", message: UNDECLARED },
  { range: r(0, 4, 0, 8), severity: 2, code: 42, message: "unused" },
  { range: r(0, 4, 0, 8), severity: 2, code: 42, message: "unused" },
  { range: r(0, 0, 0, 3), message: "no severity" },
];
const pull: Diagnostic[] = [
  { range: r(1, 9, 1, 10), severity: 1, code: "undeclared", source: "clang", message: UNDECLARED },
  { range: r(1, 9, 1, 10), severity: 1, code: "undeclared", source: "clang", message: "different" },
  { range: r(0, 4, 0, 8), severity: 4, message: "hint here" },
];
const loc = (line: number, column: number, end_line: number, end_column: number) => ({
  file: "d.c",
  line,
  column,
  end_line,
  end_column,
});
const EXPECTED: DiagnosticOut[] = [
  { ...loc(1, 1, 1, 4), severity: "error", message: "no severity", channels: ["push"] },
  { ...loc(1, 5, 1, 9), severity: "warning", code: "42", message: "unused", channels: ["push"] },
  { ...loc(1, 5, 1, 9), severity: "hint", message: "hint here", channels: ["pull"] },
  {
    ...loc(2, 10, 2, 11),
    severity: "error",
    code: "undeclared",
    source: "clang",
    message: "different",
    channels: ["pull"],
  },
  {
    ...loc(2, 10, 2, 11),
    severity: "error",
    code: "undeclared",
    source: "clang",
    message: UNDECLARED,
    channels: ["pull", "push"],
  },
];

function normalizeDiagnostics(
  uri: string,
  push: Diagnostic[] | undefined,
  pull: Diagnostic[] | undefined,
  ctx: NormalizeContext,
): Promise<DiagnosticOut[]> {
  return normalizeSliced(uri, push, pull, ctx, new TimeSlices());
}

describe("normalizeDiagnostics", () => {
  test("merges channels, keeps in-channel duplicates once, canonical order", async () => {
    expect(await normalizeDiagnostics(URI, push, pull, ctx)).toEqual(EXPECTED);
  });

  test("same bytes whatever the input order", async () => {
    const bytes = canonicalJson(EXPECTED);
    for (const seed of [11, 12, 13]) {
      const out = await normalizeDiagnostics(
        URI,
        shuffled(push, seed),
        shuffled(pull, seed + 1),
        ctx,
      );
      expect(canonicalJson(out)).toBe(bytes);
    }
  });

  test("no source or code means no key; one channel alone", async () => {
    const [only] = await normalizeDiagnostics(
      URI,
      undefined,
      [{ range: r(0, 0, 0, 3), message: "m" }],
      ctx,
    );
    expect(only).toBeDefined();
    expect(Object.keys(only as object)).toEqual([
      "file",
      "line",
      "column",
      "end_line",
      "end_column",
      "severity",
      "message",
      "channels",
    ]);
    expect(only?.channels).toEqual(["pull"]);
    expect(await normalizeDiagnostics(URI, undefined, undefined, ctx)).toEqual([]);
  });

  test("severity order error < warning < information < hint at one range", async () => {
    const same = (severity: 1 | 2 | 3 | 4): Diagnostic => ({
      range: r(0, 0, 0, 1),
      severity,
      message: "m",
    });
    const out = await normalizeDiagnostics(URI, [same(4), same(2), same(3), same(1)], [], ctx);
    expect(out.map((d) => d.severity)).toEqual(["error", "warning", "information", "hint"]);
  });

  test("markup messages keep their text; severity names", async () => {
    const markup = {
      range: r(0, 0, 0, 1),
      message: { kind: "markdown", value: "**x**" },
    } as Diagnostic;
    expect((await normalizeDiagnostics(URI, [markup], [], ctx))[0]?.message).toBe("**x**");
    expect([1, 2, 3, 4, undefined, 9].map(severityName)).toEqual([
      "error",
      "warning",
      "information",
      "hint",
      "error",
      "error",
    ]);
  });
});

describe("notes (relatedInformation)", () => {
  const files = { "m.c": "struct nope;\nint f(struct nope *p) {\n  return p->x;\n}\n" };
  const note = (uri: string, line: number, message: string) => ({
    location: { uri, range: r(line, 7, line, 11) },
    message,
  });

  test("each note at client positions in its own file, in canonical order; malformed ones dropped", async () => {
    const { ctx } = fixtureContext(files);
    const [out] = await normalizeDiagnostics(
      fileUri("m.c"),
      [
        {
          range: r(2, 10, 2, 11),
          severity: 1,
          message: "incomplete definition of type 'struct nope'",
          relatedInformation: [
            note(fileUri("m.c"), 0, "forward declaration of 'struct nope'"),
            note(fileUri("a.h"), 3, "also declared here"),
            { location: { uri: 7, range: r(0, 0, 0, 1) }, message: "bad uri" },
            { message: "no location" },
          ] as never,
        },
      ],
      undefined,
      ctx,
    );
    expect(out?.related).toEqual([
      {
        file: "a.h",
        ...range(4, 8, 4, 12),
        message: "also declared here",
      },
      {
        file: "m.c",
        ...range(1, 8, 1, 12),
        message: "forward declaration of 'struct nope'",
      },
    ]);
  });

  test("no notes, no `related` key; at most MAX_RELATED notes", async () => {
    const { ctx } = fixtureContext(files);
    const plain = await normalizeDiagnostics(
      fileUri("m.c"),
      [{ range: r(0, 0, 0, 1), message: "x" }],
      undefined,
      ctx,
    );
    expect(plain[0] && "related" in plain[0]).toBe(false);
    const many = Array.from({ length: MAX_RELATED + 5 }, (_, i) =>
      note(fileUri("m.c"), 0, `n${i}`),
    );
    const [capped] = await normalizeDiagnostics(
      fileUri("m.c"),
      [{ range: r(0, 0, 0, 1), message: "x", relatedInformation: many }],
      undefined,
      ctx,
    );
    expect(capped?.related).toHaveLength(MAX_RELATED);
  });
});
