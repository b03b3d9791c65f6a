/**
 * The conventions said once (SPEC §4.6): every code a tool can return is grouped exactly
 * once in the `initialize` instructions, and each code is documented in src/errors.ts and
 * in the SPEC §4.6 table.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_ONLY_CODES, ERROR_CODES, ERRORS } from "../../../src/errors.ts";
import {
  checkPaging,
  echoList,
  echoNames,
  echoText,
  INSTRUCTIONS,
  TOOL_ERROR_GROUPS,
} from "../../../src/mcp/conventions.ts";
import type { CallContext } from "../../../src/mcp/tool.ts";
import { thrown } from "../../support/thrown.ts";

const SPEC = readFileSync(join(import.meta.dir, "..", "..", "..", "docs/SPEC.md"), "utf8");

describe("error codes", () => {
  test("every tool error code is in exactly one instructions group; the CLI-only codes in none", () => {
    const grouped = TOOL_ERROR_GROUPS.flatMap((g) => g.codes);
    expect([...grouped].sort()).toEqual(
      ERROR_CODES.filter((c) => !CLI_ONLY_CODES.includes(c)).sort(),
    );
    for (const code of grouped) expect(INSTRUCTIONS).toContain(code);
  });

  test("each code says when it fires and what to do", () => {
    for (const code of ERROR_CODES) {
      expect(ERRORS[code].when.length).toBeGreaterThan(10);
      expect(ERRORS[code].action.length).toBeGreaterThan(3);
    }
  });

  test("the SPEC §4.6 table lists every code", () => {
    const section = SPEC.slice(SPEC.indexOf("### 4.6 Error codes"), SPEC.indexOf("### 4.7"));
    for (const code of ERROR_CODES) expect(section).toContain(`\`${code}\``);
  });
});

describe("checkPaging", () => {
  const ctx = { bridge: { config: { bridge: { max_limit: 50 } } } } as unknown as CallContext;

  test("absent: every item from the first; within bounds: as given", () => {
    expect(checkPaging(ctx, {})).toEqual({ limit: undefined, offset: 0 });
    expect(checkPaging(ctx, { limit: 1, offset: 0 })).toEqual({ limit: 1, offset: 0 });
    expect(checkPaging(ctx, { limit: 50, offset: 7 })).toEqual({ limit: 50, offset: 7 });
  });

  test("limit outside 1..max_limit or a negative offset → InvalidArgument naming the bound", () => {
    for (const limit of [0, -1, 51]) {
      const err = thrown(() => checkPaging(ctx, { limit }));
      expect([limit, err.code, err.message]).toEqual([
        limit,
        "InvalidArgument",
        `limit must be within 1..50, got ${limit}`,
      ]);
      expect(err.details).toEqual({ limit, max_limit: 50 });
    }
    const err = thrown(() => checkPaging(ctx, { limit: 5, offset: -3 }));
    expect([err.code, err.message]).toEqual([
      "InvalidArgument",
      "offset must be 0 or more, got -3",
    ]);
    expect(err.details).toEqual({ offset: -3 });
  });
});

describe("what an error repeats of the caller's input", () => {
  test("text: whole up to 64 characters, else the first 64 and the length, never half a pair", () => {
    expect(echoText("x".repeat(64))).toBe("x".repeat(64));
    expect(echoText("x".repeat(65))).toBe(`${"x".repeat(64)}… (65 characters)`);
    // an astral character straddling the cut is dropped whole
    expect(echoText(`${"x".repeat(63)}😀tail`)).toBe(`${"x".repeat(63)}… (69 characters)`);
  });

  test("names: the first 20 in sorted order and the count; a list says how many in all", () => {
    const names = Array.from({ length: 25 }, (_, i) => `k${String(24 - i).padStart(2, "0")}`);
    const kept = echoNames(names);
    expect(kept.count).toBe(25);
    expect(kept.names).toEqual(
      Array.from({ length: 20 }, (_, i) => `k${String(i).padStart(2, "0")}`),
    );
    expect(echoList(["b", "a"])).toBe('"a", "b"');
    expect(echoList(names)).toEndWith('"k19", … (25 in all)');
  });
});
