/**
 * The conventions said once (SPEC §4.6): every code a tool can return is grouped exactly
 * once in the `initialize` instructions, and each code is documented in src/errors.ts and
 * in the SPEC §4.6 table.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ERROR_CODES, ERRORS } from "../../../src/errors.ts";
import { checkPaging, INSTRUCTIONS, TOOL_ERROR_GROUPS } from "../../../src/mcp/conventions.ts";
import type { CallContext } from "../../../src/mcp/tool.ts";
import { thrown } from "../../support/thrown.ts";

const SPEC = readFileSync(join(import.meta.dir, "..", "..", "..", "docs/SPEC.md"), "utf8");

describe("error codes", () => {
  test("every tool error code is in exactly one instructions group; ConfigInvalid is CLI-only", () => {
    const grouped = TOOL_ERROR_GROUPS.flatMap((g) => g.codes);
    expect([...grouped].sort()).toEqual(ERROR_CODES.filter((c) => c !== "ConfigInvalid").sort());
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
