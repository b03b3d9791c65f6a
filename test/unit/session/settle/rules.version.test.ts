/** The `version` rule's decisions (src/session/settle/rules.ts, SPEC §6). */
import { versionRule } from "../../../../src/session/settle/rules.ts";
import { PLAIN_ROWS, ruleTable } from "../../../support/settle-table.ts";

ruleTable(versionRule, {
  ...PLAIN_ROWS,
  afterSync: {
    push: "publishDiagnostics for file:///w/a.py version 3",
    pushed: {
      "no publish yet": false,
      // unchanged content: the server may not publish again for the new version
      "before the sync, the synced version": true,
      "before the sync, an older version": false,
      "before the sync, no version": false,
      "after the sync, the synced version": true,
      "after the sync, a newer version": true,
      "after the sync, an older version": false,
      "after the sync, no version": true,
      "after the sync, no version, exact (a preview)": false,
    },
  },
  file: {
    pulled: { ask: "pull", waitFirst: false, waitAfter: false },
    unpulled: { ask: "push", waitFirst: false, waitAfter: true },
  },
  perVersion: { pulled: false, unpulled: true },
  loaded: { published: "each", unpublished: "none" },
  skipsUnpublished: { pulled: false, unpulled: true },
});
