/**
 * `pull` (SPEC §6): the pull response alone settles, and the server answers pulls whether it
 * announced them or not (astro-ls): nothing is awaited after a sync.
 */
import { PLAIN_RULE, type SettleRule } from "./rule.ts";

export const pullRule: SettleRule = {
  ...PLAIN_RULE,
  name: "pull",
  afterSync: () => null,
  file: () => ({ ask: "pull", waitFirst: false, waitAfter: false }),
};
