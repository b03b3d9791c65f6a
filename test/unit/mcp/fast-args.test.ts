/**
 * The arguments checker compiled from a tool's input schema (src/mcp/fast-args.ts): for
 * every tool that has one, any arguments it passes are what zod's parse gives, byte for
 * byte (keys in the schema's order), and whatever zod refuses it leaves to zod — so the
 * errors stay zod's. Checked over many argument objects built from values of every JSON
 * type, in and out of each bound.
 */
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { compileArgsCheck } from "../../../src/mcp/fast-args.ts";
import { TOOLS } from "../../../src/mcp/tools/index.ts";

/** Values of every JSON type, at and past the bounds the schemas use. */
const VALUES: unknown[] = [
  "",
  "src/a.ts",
  "x".repeat(257),
  "incoming",
  "outgoing",
  "subtypes",
  "h",
  0,
  1,
  2,
  -1,
  1.5,
  2 ** 53,
  2 ** 60,
  -(2 ** 53),
  true,
  false,
  null,
  [],
  ["a.ts"],
  {},
  { line: 1 },
];

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Argument objects for a schema: each key absent or one of VALUES — mostly one its field
 * takes, so that many sets pass — and a stray key now and then.
 */
function argumentSets(shape: z.ZodRawShape, n: number, next: () => number) {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] as T;
  const keys = Object.keys(shape);
  const takes = new Map(
    keys.map((k) => [k, VALUES.filter((v) => (shape[k] as z.ZodType).safeParse(v).success)]),
  );
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const args: Record<string, unknown> = {};
    // a shuffled key order: the parse's order is the schema's, whatever the caller's
    for (const key of [...keys].sort(() => next() - 0.5)) {
      if (next() < 0.3) continue;
      const good = takes.get(key) ?? [];
      args[key] = next() < 0.95 && good.length > 0 ? pick(good) : pick(VALUES);
    }
    if (next() < 0.05) args.stray = 1;
    out.push(args);
  }
  // the caller's own `__proto__` key (JSON.parse makes it an own property)
  out.push(JSON.parse('{"__proto__": {"file": "a.ts"}, "file": "a.ts"}'));
  return out;
}

const checked = TOOLS.map((t) => ({ tool: t, check: compileArgsCheck(t.input) }));

describe("compiled from the input schemas", () => {
  test("the read tools' position, file and query shapes have a checker", () => {
    const have = checked.filter((c) => c.check !== null).map((c) => c.tool.name);
    for (const name of ["hover", "definition", "references", "document_symbols"]) {
      expect(have).toContain(name);
    }
    expect(have).toContain("workspace_symbols");
  });

  test("a schema with a part it does not read has none: zod parses every call", () => {
    expect(compileArgsCheck(z.object({ files: z.array(z.string()) }).strict())).toBeNull();
    expect(compileArgsCheck(z.object({ n: z.number().default(1) }).strict())).toBeNull();
    expect(compileArgsCheck(z.object({ s: z.string() }))).toBeNull(); // not strict
    expect(compileArgsCheck(z.object({ s: z.string().regex(/a/) }).strict())).toBeNull();
  });
});

describe("the same as zod's parse", () => {
  for (const { tool, check } of checked) {
    if (check === null) continue;
    test(`${tool.name}: passes only what zod passes, as zod gives it; refuses what zod refuses`, () => {
      const next = random(tool.name.length * 7919);
      let passed = 0;
      for (const args of argumentSets(tool.input.shape, 1500, next)) {
        const fast = check(args);
        const parsed = tool.input.safeParse(args);
        if (parsed.success) {
          expect(fast).toBeDefined();
          expect(JSON.stringify(fast)).toBe(JSON.stringify(parsed.data));
          expect(fast).toEqual(parsed.data);
          passed += 1;
        } else expect(fast).toBeUndefined();
      }
      // the sets reach both sides
      expect(passed).toBeGreaterThan(100);
      expect(passed).toBeLessThan(1500);
    });
  }
});
