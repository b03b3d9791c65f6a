/** The `tsserver` rule's decisions (src/session/settle/rules.ts, SPEC §6). */
import { tsserverRule } from "../../../../src/session/settle/rules.ts";
import { AFTER_ANY_PUBLISH, PLAIN_ROWS, ruleTable } from "../../../support/settle-table.ts";

const NONE = "none" as const;

ruleTable(tsserverRule, {
  ...PLAIN_ROWS,
  afterSync: AFTER_ANY_PUBLISH,
  // asked of tsserver, complete by construction: nothing else is awaited
  file: {
    pulled: { ask: "tsserver", waitFirst: false, waitAfter: false },
    unpulled: { ask: "tsserver", waitFirst: false, waitAfter: false },
  },
  runs: "ignored",
  refresh: {
    "pulled diagnostics watching": NONE,
    "pulled diagnostics unwatched": NONE,
    "pulled semantics watching": NONE,
    "pulled semantics unwatched": NONE,
    "unpulled diagnostics watching": NONE,
    "unpulled diagnostics unwatched": NONE,
    "unpulled semantics watching": NONE,
    "unpulled semantics unwatched": NONE,
  },
  previewPublishes: false,
});
