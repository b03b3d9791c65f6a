import { describe, expect, test } from "bun:test";
import { canonicalJson } from "../../../src/normalize/cap.ts";
import { makeNormalizeContext } from "../../../src/normalize/range-converter.ts";
import type { NormalizeContext } from "../../../src/normalize/types.ts";
import { lineColumnsOf } from "../../../src/text/line-columns.ts";
import { lineModel } from "../../../src/text/line-model.ts";
import { LineIndex, lspToClient } from "../../../src/text/positions.ts";
import { expectAt } from "../../support/expect-where.ts";
import { fileUri, fixtureContext, ROOT, r, range } from "../../support/normalize-context.ts";

const FILES = { "src/a.ts": "x😀y = 1;\r\nz" };

describe("makeNormalizeContext", () => {
  test("a server of another line model: its lines through the text, even in the client's unit", async () => {
    const text = "int f;\r/* a */\nf();\n";
    const lf = lineModel(["lf"]);
    const loaded: string[][] = [];
    let cached = false;
    const ctx = makeNormalizeContext({
      root: ROOT,
      rootReal: ROOT,
      encoding: "utf-32",
      unit: "code-point",
      model: lf,
      tables: {
        get: () => lineColumnsOf(text, lf),
        // nothing cached until loaded: the first run asks, the second converts
        peek: () => (cached ? lineColumnsOf(text, lf) : "pending"),
        load: async (paths) => {
          loaded.push(paths);
          cached = true;
        },
      },
    });
    const range = await ctx.convert(() => ctx.toRange(fileUri("a.c"), r(1, 0, 1, 1)));
    expect(loaded).toEqual([[`${ROOT}/a.c`]]);
    // the LF-only server's line 1 is the client's line 3 (after the lone CR and the LF)
    expect(range).toEqual({ line: 3, column: 1, end_line: 3, end_column: 2 });
    // cached now: one run, nothing loaded
    await ctx.convert(() => ctx.toRange(fileUri("a.c"), r(1, 0, 1, 1)));
    expect(loaded).toHaveLength(1);
    // LSP's lines in the client's unit: nothing to load, nothing read
    const asIs = fixtureContext({ "a.c": text }, { encoding: "utf-32", unit: "code-point" });
    const line = await asIs.ctx.convert(() => asIs.ctx.toRange(fileUri("a.c"), r(1, 0, 1, 1)).line);
    expect(line).toBe(2);
    expect(asIs.reads).toEqual([]);
  });

  test("found: a file a result names, by its name there, as the call's tables found its path", () => {
    const present = new Set([`${ROOT}/src/a.ts`]);
    const ctx = makeNormalizeContext({
      root: ROOT,
      rootReal: ROOT,
      encoding: "utf-16",
      unit: "code-point",
      tables: { get: () => lineColumnsOf("x\n"), present: (abs) => present.has(abs) },
    });
    expect(ctx.toLoc(fileUri("src/a.ts"), r(0, 0, 0, 1))).toMatchObject({ file: "src/a.ts" });
    ctx.toLoc(fileUri("src/b.ts"), r(0, 0, 0, 1));
    expect(["src/a.ts", "src/b.ts", "src/never-named.ts"].map((f) => ctx.found(f))).toEqual([
      true,
      false,
      false,
    ]);
  });

  test("a file past the call's budget: the server's positions, and the file named", () => {
    const ctx = makeNormalizeContext({
      root: ROOT,
      rootReal: ROOT,
      encoding: "utf-16",
      unit: "code-point",
      tables: { get: (abs) => (abs.endsWith("big.ts") ? "budget" : lineColumnsOf("x😀y\n")) },
    });
    expect(ctx.toRange(fileUri("big.ts"), r(0, 3, 0, 4))).toEqual(range(1, 4, 1, 5));
    expect(ctx.toRange(fileUri("small.ts"), r(0, 3, 0, 4)).column).toBe(3);
    expect(ctx.unconverted()).toEqual(["big.ts"]);
  });

  test("converts through the file's text (astral character, CRLF)", () => {
    const { ctx } = fixtureContext(FILES, { encoding: "utf-16", unit: "code-point" });
    expect(ctx.toRange(fileUri("src/a.ts"), r(0, 3, 1, 1))).toEqual(range(1, 3, 2, 2));
    const utf8 = fixtureContext(FILES, { encoding: "utf-8", unit: "utf-16" }).ctx;
    expect(utf8.toRange(fileUri("src/a.ts"), r(0, 5, 0, 6))).toEqual(range(1, 4, 1, 5));
  });

  test("locations: relative inside, absolute outside, uri for non-file", () => {
    const { ctx } = fixtureContext(FILES);
    expect(canonicalJson(ctx.toLoc(fileUri("src/a.ts"), r(0, 0, 0, 1)))).toBe(
      '{"file":"src/a.ts","line":1,"column":1,"end_line":1,"end_column":2}',
    );
    // unreadable: the documented character + 1 fallback
    expect(ctx.toLoc("file:///elsewhere/lib.d.ts", r(4, 7, 4, 9))).toEqual({
      file: "/elsewhere/lib.d.ts",
      ...range(5, 8, 5, 10),
    });
    expect(ctx.toLoc("untitled:Untitled-1", r(0, 2, 0, 3))).toEqual({
      uri: "untitled:Untitled-1",
      ...range(1, 3, 1, 4),
    });
    expect(ctx.toTarget(fileUri("src/a.ts"))).toEqual({ file: "src/a.ts" });
    expect(ctx.toTarget("untitled:x")).toEqual({ uri: "untitled:x" });
  });

  test("names kept across contexts are the same answers, never shared objects; each context reads afresh", () => {
    const first = fixtureContext(FILES);
    const uri = fileUri("src/a.ts");
    const target = first.ctx.toTarget(uri) as { file: string };
    const loc = first.ctx.toLoc(uri, r(0, 0, 0, 1)) as { file: string };
    // a caller changing what it got changes nothing for the next result
    target.file = "changed";
    loc.file = "changed";
    const second = fixtureContext(FILES);
    expect(second.ctx.toTarget(uri)).toEqual({ file: "src/a.ts" });
    expect(second.ctx.toLoc(uri, r(0, 0, 0, 1))).toEqual({
      file: "src/a.ts",
      ...range(1, 1, 1, 2),
    });
    // the line tables are the context's own: each context asks for the text again
    expect(second.reads).toEqual([`/nonexistent-theodolite-root/ws/src/a.ts`]);
    // another root places the same URI under itself
    const other = makeNormalizeContext({
      root: "/nonexistent-theodolite-root",
      rootReal: "/nonexistent-theodolite-root",
      encoding: "utf-16",
      unit: "code-point",
      tables: { get: () => undefined },
    });
    expect(other.toTarget(uri)).toEqual({ file: "ws/src/a.ts" });
  });

  test("reads each file once per context", () => {
    const { ctx, reads } = fixtureContext(FILES);
    for (let i = 0; i < 3; i++) ctx.toRange(fileUri("src/a.ts"), r(0, 0, 0, 1));
    ctx.toLoc(fileUri("src/a.ts"), r(1, 0, 1, 1));
    expect(reads).toHaveLength(1);
  });

  test("untrusted server ranges: past the end clamps, reversed collapses", () => {
    const { ctx } = fixtureContext(FILES);
    expect(ctx.toRange(fileUri("src/a.ts"), r(0, 99, 5, 0))).toEqual(range(1, 9, 2, 2));
    expect(ctx.toRange(fileUri("src/a.ts"), r(1, 1, 0, 0))).toEqual(range(2, 2, 2, 2));
    expect(ctx.toRange(fileUri("src/a.ts"), r(-3, -1, 0, 1))).toEqual(range(1, 1, 1, 2));
  });

  test("an ASCII file's ranges (the text-free table, an open document's index) are the full conversion's, out of range and reversed included", () => {
    const text = "int a;\r\n\nlong_name(x);\rz";
    const full = new LineIndex(text);
    const probes = [0, 1, 2, 3, 4, 7, 40, -2, 1.5, Number.NaN];
    // a server encoding that is not the unit: with the same, columns convert without the text
    const pairs = [
      ["code-point", "utf-16"],
      ["utf-16", "utf-8"],
      ["utf-8", "utf-32"],
    ] as const;
    // the cache's text-free table, and the LineIndex an open document converts against
    const tables = { ascii: lineColumnsOf, document: (t: string) => new LineIndex(t) };
    for (const [unit, encoding] of pairs) {
      // the second context also meets the names the first remembered
      for (const [kind, table] of Object.entries(tables)) {
        const { ctx } = fixtureContext({ "a.c": text }, { encoding, unit, table });
        for (const a of probes) {
          for (const b of probes) {
            const range = r(a, b, b, a);
            const start = lspToClient(full, range.start, encoding, unit);
            let end = lspToClient(full, range.end, encoding, unit);
            if (end.line < start.line || (end.line === start.line && end.column < start.column)) {
              end = start;
            }
            const want = {
              line: start.line,
              column: start.column,
              end_line: end.line,
              end_column: end.column,
            };
            expectAt({ unit, kind, range }, ctx.toRange(fileUri("a.c"), range), want);
            expect(ctx.toLoc(fileUri("a.c"), range)).toEqual({ file: "a.c", ...want });
          }
        }
      }
    }
  });

  test("two results converted by turns keep their own tables; two spellings of a path share one", () => {
    let version = 0;
    const contexts = [1, 2].map(() =>
      makeNormalizeContext({
        root: ROOT,
        rootReal: ROOT,
        encoding: "utf-16",
        unit: "code-point",
        // the file grows a line each time it is read: a second read would show
        tables: { get: () => lineColumnsOf(`${"x\n".repeat(++version)}end`) },
      }),
    );
    const [a, b] = contexts as [NormalizeContext, NormalizeContext];
    const past = r(99, 0, 99, 0); // past the end: the answer tells which text it met
    const first = a.toRange(fileUri("f.c"), past); // a reads: 2 lines
    const other = b.toRange(fileUri("f.c"), past); // b reads: 3 lines
    const again = a.toRange(`file://${ROOT}/./f.c`.replace("/./", "/%2E/"), past);
    expect([first.line, other.line]).toEqual([2, 3]);
    expect(a.toRange(fileUri("f.c"), past)).toEqual(first);
    expect(b.toRange(fileUri("f.c"), past)).toEqual(other);
    expect(again).toEqual(first);
    expect(version).toBe(2);
  });
});
