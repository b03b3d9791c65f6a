/**
 * The settle rule a server declares (`diagnostics_settle`, SPEC §6), chosen once where its
 * session is built (context.ts) and passed; no other code reads the key.
 */
import type { ServerConfig } from "../../config/types.ts";
import { progressRule } from "./progress.ts";
import { publishRule } from "./publish.ts";
import { pullRule } from "./pull.ts";
import { quiescentRule } from "./quiescent.ts";
import type { SettleRule } from "./rule.ts";
import { tsserverRule } from "./tsserver.ts";
import { versionRule } from "./version.ts";

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
