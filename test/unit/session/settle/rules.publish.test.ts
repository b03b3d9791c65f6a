/** The `publish` rule's decisions (src/session/settle/rules.ts, SPEC §6). */

import { UNVERSIONED } from "../../../../src/session/settle/rule.ts";
import { publishRule } from "../../../../src/session/settle/rules.ts";
import { AFTER_ANY_PUBLISH, PLAIN_ROWS, ruleTable } from "../../../support/settle-table.ts";

ruleTable(publishRule, {
  ...PLAIN_ROWS,
  afterSync: AFTER_ANY_PUBLISH,
  file: {
    pulled: { ask: "pull", waitFirst: false, waitAfter: false },
    unpulled: { ask: "push", waitFirst: false, waitAfter: true, unsettled: UNVERSIONED },
  },
  // its diagnostics always come from an opening: a change of the text itself may go unpublished
  refresh: {
    ...PLAIN_ROWS.refresh,
    "unpulled diagnostics watching": "fresh",
    "unpulled diagnostics unwatched": "fresh",
  },
  skipsUnpublished: { pulled: false, unpulled: true },
});
