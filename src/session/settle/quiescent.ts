/**
 * `quiescent` (SPEC §6): settled once the server reports quiescence again
 * (`experimental/serverStatus`); it answers pulls from its last load, so it is pulled only
 * after that, and a workspace-wide answer waits for it after the runs.
 */
import { PLAIN_RULE, pullOrPush, type SettleRule } from "./rule.ts";

export const quiescentRule: SettleRule = {
  ...PLAIN_RULE,
  name: "quiescent",
  afterSync: () => ({ on: "quiescence", what: "quiescence after the change" }),
  file: (pulled) => ({ ask: pullOrPush(pulled), waitFirst: true, waitAfter: false }),
  loaded: () => "first",
  workspaceQuiescence: true,
};
