/**
 * `version` (SPEC §6): settled by a publish carrying the synced version; the bridge also
 * awaits those publishes after a change before a call goes on (catch-up.ts).
 */
import { PLAIN_RULE, pullOrPush, type SettleRule } from "./rule.ts";

export const versionRule: SettleRule = {
  ...PLAIN_RULE,
  name: "version",
  afterSync: (doc, exact) => ({
    on: "push",
    what: `publishDiagnostics for ${doc.uri} version ${doc.version}`,
    pushed: (e) => {
      // a publish from before this sync may still carry this version (unchanged content)
      if (!e || e.seq <= doc.syncSeq) return e !== undefined && e.version === doc.version;
      // one without a version counts too, unless `exact` (a preview: a file opened in a
      // change set may get a publish of the set's state before its own opening)
      if (e.version === undefined) return !exact;
      return e.version >= doc.version;
    },
  }),
  file: (pulled) => ({ ask: pullOrPush(pulled), waitFirst: false, waitAfter: !pulled }),
  perVersion: (pulled) => !pulled,
  loaded: (published) => (published ? "each" : "none"),
  skipsUnpublished: (pulled) => !pulled,
};
