/**
 * The conventions said once (SPEC §4.6): every code a tool can return is grouped exactly
 * once in the `initialize` instructions, and each code is documented in src/errors.ts and
 * in the SPEC §4.6 table.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ERROR_CODES, ERRORS } from "../../../src/errors.ts";
import { INSTRUCTIONS, TOOL_ERROR_GROUPS } from "../../../src/mcp/conventions.ts";

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
