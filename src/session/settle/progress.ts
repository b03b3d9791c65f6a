/**
 * `progress` (SPEC §6): the server's diagnostics come from check runs (bacon-ls): settled
 * once a run has completed and none is running; its publishes alone settle nothing.
 */
import { anyPublish, PLAIN_RULE, pullOrPush, type SettleRule } from "./rule.ts";

export const progressRule: SettleRule = {
  ...PLAIN_RULE,
  name: "progress",
  afterSync: anyPublish,
  file: (pulled) => ({ ask: pullOrPush(pulled), waitFirst: false, waitAfter: false }),
  runs: "completed",
};
