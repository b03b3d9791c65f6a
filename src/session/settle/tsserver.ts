/**
 * `tsserver` (SPEC §6): diagnostics asked of tsserver through typescript-language-server's
 * command, complete by construction; its publishes and any runs answer nothing, and the
 * document is never refreshed for them.
 */
import { anyPublish, PLAIN_RULE, type SettleRule } from "./rule.ts";

export const tsserverRule: SettleRule = {
  ...PLAIN_RULE,
  name: "tsserver",
  afterSync: anyPublish,
  file: () => ({ ask: "tsserver", waitFirst: false, waitAfter: false }),
  runs: "ignored",
  refresh: () => "none",
  previewPublishes: false,
};
