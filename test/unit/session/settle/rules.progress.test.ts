/** The `progress` rule's decisions (src/session/settle/rules.ts, SPEC §6). */
import { progressRule } from "../../../../src/session/settle/rules.ts";
import { AFTER_ANY_PUBLISH, PLAIN_ROWS, ruleTable } from "../../../support/settle-table.ts";

ruleTable(progressRule, {
  ...PLAIN_ROWS,
  afterSync: AFTER_ANY_PUBLISH,
  // its publishes settle nothing: a completed run does
  file: {
    pulled: { ask: "pull", waitFirst: false, waitAfter: false },
    unpulled: { ask: "push", waitFirst: false, waitAfter: false },
  },
  runs: "completed",
});
