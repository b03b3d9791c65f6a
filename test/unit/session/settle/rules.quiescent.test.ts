/** The `quiescent` rule's decisions (src/session/settle/rules.ts, SPEC §6). */
import { quiescentRule } from "../../../../src/session/settle/rules.ts";
import { PLAIN_ROWS, ruleTable } from "../../../support/settle-table.ts";

ruleTable(quiescentRule, {
  ...PLAIN_ROWS,
  afterSync: { quiescence: "quiescence after the change" },
  // quiescent first: it answers pulls from its last load
  file: {
    pulled: { ask: "pull", waitFirst: true, waitAfter: false },
    unpulled: { ask: "push", waitFirst: true, waitAfter: false },
  },
  loaded: { published: "first", unpublished: "first" },
  workspaceQuiescence: true,
});
