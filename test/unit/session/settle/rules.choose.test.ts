/** Each `diagnostics_settle` value is one rule object, chosen once (SPEC §6). */
import { expect, test } from "bun:test";
import { settleRule } from "../../../../src/session/settle/rules.ts";

test("the rule chosen is the one the key names", () => {
  const names = ["version", "publish", "quiescent", "pull", "progress", "tsserver"] as const;
  for (const name of names) expect(settleRule({ diagnostics_settle: name }).name).toBe(name);
});
