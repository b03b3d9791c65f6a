/**
 * The settle rules (SPEC §6), one object per `diagnostics_settle` value, each listing only
 * what differs from PLAIN_RULE; `settleRule` chooses one once where the session is built
 * (context.ts), and no other code reads the key.
 */
import type { Role, ServerConfig } from "../../config/types.ts";
import {
  anyPublish,
  PLAIN_RULE,
  pullOrPush,
  refreshReopen,
  type SettleRule,
  UNVERSIONED,
} from "./rule.ts";

/** Settled by a publish carrying the synced version, awaited after a change (catch-up.ts). */
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

/**
 * Any publish after the sync. One without a version may skip a change of the document's
 * own text, so a diagnostics call opens it afresh, and the answer is not proven finished.
 */
export const publishRule: SettleRule = {
  ...PLAIN_RULE,
  name: "publish",
  afterSync: anyPublish,
  file: (pulled) => ({
    ask: pullOrPush(pulled),
    waitFirst: false,
    waitAfter: !pulled,
    ...(pulled ? {} : { unsettled: UNVERSIONED }),
  }),
  refresh: (pulled: boolean, role: Role, watching: boolean) =>
    !pulled && role === "diagnostics" ? "fresh" : refreshReopen(pulled, role, watching),
  skipsUnpublished: (pulled) => !pulled,
};

/** The pull response alone settles, announced or not (astro-ls): nothing awaited after a sync. */
export const pullRule: SettleRule = {
  ...PLAIN_RULE,
  name: "pull",
  afterSync: () => null,
  file: () => ({ ask: "pull", waitFirst: false, waitAfter: false }),
};

/**
 * Settled once the server reports quiescence again; it answers pulls from its last load, so
 * it is pulled only after that, and a workspace answer waits for it after the runs.
 */
export const quiescentRule: SettleRule = {
  ...PLAIN_RULE,
  name: "quiescent",
  afterSync: () => ({ on: "quiescence", what: "quiescence after the change" }),
  file: (pulled) => ({ ask: pullOrPush(pulled), waitFirst: true, waitAfter: false }),
  loaded: () => "first",
  workspaceQuiescence: true,
};

/** Diagnostics from check runs (bacon-ls): settled once one completed and none runs. */
export const progressRule: SettleRule = {
  ...PLAIN_RULE,
  name: "progress",
  afterSync: anyPublish,
  file: (pulled) => ({ ask: pullOrPush(pulled), waitFirst: false, waitAfter: false }),
  runs: "completed",
};

/** Asked of tsserver through typescript-language-server's command: complete by construction. */
export const tsserverRule: SettleRule = {
  ...PLAIN_RULE,
  name: "tsserver",
  afterSync: anyPublish,
  file: () => ({ ask: "tsserver", waitFirst: false, waitAfter: false }),
  runs: "ignored",
  refresh: () => "none",
  previewPublishes: false,
};

const RULES: Readonly<Record<ServerConfig["diagnostics_settle"], SettleRule>> = Object.freeze({
  version: versionRule,
  publish: publishRule,
  pull: pullRule,
  quiescent: quiescentRule,
  progress: progressRule,
  tsserver: tsserverRule,
});

export function settleRule(server: Pick<ServerConfig, "diagnostics_settle">): SettleRule {
  return RULES[server.diagnostics_settle];
}
