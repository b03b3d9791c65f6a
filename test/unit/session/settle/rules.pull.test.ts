/** The `pull` rule's decisions (src/session/settle/rules.ts, SPEC §6). */
import { pullRule } from "../../../../src/session/settle/rules.ts";
import { PLAIN_ROWS, ruleTable } from "../../../support/settle-table.ts";

ruleTable(pullRule, {
  ...PLAIN_ROWS,
  afterSync: null,
  // pulled whether the server announced it or not
  file: {
    pulled: { ask: "pull", waitFirst: false, waitAfter: false },
    unpulled: { ask: "pull", waitFirst: false, waitAfter: false },
  },
});
