/**
 * The form a message is matched by (SPEC §6.1): renderings of one problem — a union's or
 * a type literal's members in another order, white space, quoting — share it; a different
 * problem does not, and order that carries meaning (parameters, tuples, type arguments,
 * a sentence's words) stays order.
 */
import { describe, expect, test } from "bun:test";
import { matchedMessage } from "../../../src/normalize/diagnostics-diff.ts";
import { messageForm } from "../../../src/normalize/message-form.ts";

/** tsserver's renderings of one problem, measured (docs/LANGUAGE-SERVERS.md). */
const SAME: [string, string, string][] = [
  [
    "a union's members in creation order",
    `Type '"nope"' is not assignable to type '"zeta" | "alpha"'.`,
    `Type '"nope"' is not assignable to type '"alpha" | "zeta"'.`,
  ],
  [
    "a mapped type's members in its keys' order",
    "Type '5' has no properties in common with type '{ zeta?: number | undefined; alpha?: number | undefined; }'.",
    "Type '5' has no properties in common with type '{ alpha?: number | undefined; zeta?: number | undefined; }'.",
  ],
  [
    "zod's deprecated signature (members of a literal inside a union inside parameters)",
    "'(params?: string | { abort?: boolean | undefined; pattern?: RegExp | undefined; error?: string | ... 1 more ... | undefined; } | undefined): ZodString' is deprecated.",
    "'(params?: string | { pattern?: RegExp | undefined; abort?: boolean | undefined; error?: string | ... 1 more ... | undefined; } | undefined): ZodString' is deprecated.",
  ],
  [
    "a union inside type arguments",
    "Type 'X' is not assignable to type 'Pick<Full, \"zeta\" | \"alpha\">'.",
    "Type 'X' is not assignable to type 'Pick<Full, \"alpha\" | \"zeta\">'.",
  ],
  [
    "a union after an arrow and one after a colon",
    "type '(x: string) => number | string' of 'f: A | B'",
    "type '(x: string) => string | number' of 'f: B | A'",
  ],
  ["members nested in members", "'{ a: { c: 1; b: 2 }; d: 3 }'", "'{ d: 3; a: { b: 2; c: 1; }; }'"],
  [
    "a trailing separator, and `,` for `;`",
    "'{ a: string; b: number; }'",
    "'{ b: number, a: string }'",
  ],
  [
    "white space: runs, line breaks, beside punctuation",
    "Type 'A'  is not\n  assignable to '{ a : number }'",
    "Type 'A' is not assignable to '{a: number}'",
  ],
  ["quoting style", "Cannot find name 'x'.", 'Cannot find name "x".'],
  [
    "backticks and typographic quotes",
    "expected `u32`, found ‘&str’",
    "expected 'u32', found '&str'",
  ],
  ["quoting style where sets are", `'"b" | "a"' here`, `"'a' | 'b'" here`],
  ["an apostrophe is no quote", "doesn't fit '{ b; a }'", "doesn't fit '{ a; b }'"],
  ["a group left open", "'{ b: 1; a: 2", "'{ a: 2; b: 1"],
  [
    "long members (a digest in their parent) in another order",
    `'{ ${"alpha".repeat(9)}: 1; ${"beta".repeat(9)}: 2; ${"gamma".repeat(9)}: 3 }'`,
    `'{ ${"gamma".repeat(9)}: 3; ${"alpha".repeat(9)}: 1; ${"beta".repeat(9)}: 2 }'`,
  ],
];

/** Different problems, or renderings whose order means something. */
const DIFFERENT: [string, string, string][] = [
  ["another union", `to type '"zeta" | "alpha"'`, `to type '"zeta" | "beta"'`],
  ["members with other types", "'{ a: string; b: number }'", "'{ a: number; b: string }'"],
  [
    "parameters in another order",
    "'(a: string, b: number) => void'",
    "'(b: number, a: string) => void'",
  ],
  ["a tuple in another order", "'[string, number] | X'", "'[number, string] | X'"],
  ["type arguments in another order", "'Map<string, number> | X'", "'Map<number, string> | X'"],
  [
    "the source and the target swapped",
    "Type 'A | B' is not assignable to type 'C'.",
    "Type 'C' is not assignable to type 'A | B'.",
  ],
  ["prose order", "expected `A`, found `B | C`", "expected `B | C`, found `A`"],
  ["a list after another colon", "from 'X': a, b: c", "from 'X': a, c: b"],
  ["the text a list follows", "missing from 'X': a, b", "missing from 'Y': a, b"],
  ["`|` outside any group (a gutter, prose)", "a | b", "b | a"],
  ["words run together", "'{ is not }'", "'{ isnot }'"],
  ["a union member moved across a colon", "'{ a: number | b }'", "'{ b: number | a }'"],
  [
    "a long member that differs",
    `'{ ${"alpha".repeat(9)}: 1; ${"beta".repeat(9)}: 2 }'`,
    `'{ ${"alpha".repeat(9)}: 1; ${"beta".repeat(9)}: 3 }'`,
  ],
  [
    "a truncated type naming other members",
    "'string | ... 1 more ... | A'",
    "'string | ... 1 more ... | B'",
  ],
];

describe("messageForm", () => {
  test.each(SAME)("one problem: %s", (_what, a, b) => {
    expect(messageForm(a)).toBe(messageForm(b));
  });

  test.each(DIFFERENT)("not one problem: %s", (_what, a, b) => {
    expect(messageForm(a)).not.toBe(messageForm(b));
  });

  test("the forms, written out", () => {
    expect(messageForm(`Type '"nope"' is not assignable to type '"zeta" | "alpha"'.`)).toBe(
      `Type''nope''is not assignable to type''alpha'|'zeta''.`,
    );
    expect(messageForm("'{ zeta?: number | undefined; alpha?: number; }'")).toBe(
      "'{alpha?:number,zeta?:number|undefined}'",
    );
    expect(messageForm("doesn't  fit\n'x'")).toBe("doesn't fit'x'");
    // groups past 64 characters stand as a digest in their parent
    expect(messageForm(`'{ ${"a".repeat(80)}: 1 }'`)).toMatch(/^'#[0-9a-f]{20}'$/);
  });

  test("deterministic, pure, and blind to nothing but rendering", () => {
    const m = "'{ b: (x: 1 | 2) => void; a: [C | D, E] }'";
    expect(messageForm(m)).toBe(messageForm(m));
    expect(messageForm(m)).toBe(messageForm("'{ a: [D | C, E]; b: (x: 2 | 1) => void }'"));
    expect(messageForm(m)).not.toBe(messageForm("'{ a: [E, D | C]; b: (x: 2 | 1) => void }'"));
  });

  test("nesting past the depth bound is text, still matched alike", () => {
    const deep = (inner: string) => `${"(".repeat(200)}{ ${inner} }${")".repeat(200)}`;
    expect(messageForm(deep("a; b"))).toBe(messageForm(deep("a; b")));
    expect(messageForm(deep("a; b"))).not.toBe(messageForm(deep("a; c")));
  });
});

describe("matchedMessage", () => {
  test("positions blanked, then the form: a moved rendering of the other order matches", () => {
    expect(matchedMessage("src/a.ts:3:5: '{ b; a }'")).toBe(
      matchedMessage("src/a.ts:9:1: '{ a; b }'"),
    );
  });
});
