/**
 * Zero-config mode (SPEC §2.1): the shell (the directory as the only workspace, no server
 * yet) exists at once, so `initialize` never waits; discovery fills the servers in after,
 * and never fails. A refused directory (root-guard.ts) starts no discovery.
 */
import { resolve } from "node:path";
import { standings } from "../config/standing.ts";
import type { Config, DiscoveryReport } from "../config/types.ts";
import { defaultBridgeConfig } from "../config/validate.ts";
import { log } from "../log.ts";
import { discover } from "./discover.ts";
import { discoveredConfig, workspaceNameFor } from "./document.ts";
import { lookAtTop, placesOf, refusal } from "./root-guard.ts";
import { realOrNull } from "./toolchain.ts";

export const ZERO_CONFIG_SOURCE = "zero-config";

/** The shell for `cwd`; a refused directory gets its report at once, with the refusal. */
export function zeroConfigShell(cwd: string, env: NodeJS.ProcessEnv = process.env): Config {
  // a directory removed under us keeps its name: discovery will find nothing there
  const root = realOrNull(resolve(cwd)) ?? resolve(cwd);
  const refused = refusal(root, placesOf(env), () => lookAtTop(root));
  return {
    bridge: defaultBridgeConfig(),
    workspaces: [
      { name: workspaceNameFor(root), root, servers: [], file_dirs: {}, incidental: [] },
    ],
    servers: [],
    source: ZERO_CONFIG_SOURCE,
    ...(refused ? { discovery: { ...emptyReport(root), refused } } : {}),
  };
}

export function emptyReport(root: string): DiscoveryReport {
  return {
    root,
    workspace_bins: [],
    scan: { entries: 0, truncated: false, extensions: [] },
    toolchain: { typescript: null, python: null },
    servers: [],
  };
}

/** The shell with the servers discovery chose, and the report; never throws. */
export async function discoverZeroConfig(
  shell: Config,
  signal?: AbortSignal,
  path?: string,
): Promise<Config> {
  const root = shell.workspaces[0]?.root ?? resolve(".");
  if (shell.discovery?.refused) return shell; // said at start (serve.ts); nothing runs here
  // the client's roots as the shell's report holds them (a shell for a root it listed)
  const roots = shell.discovery?.roots ? { roots: shell.discovery.roots } : {};
  try {
    const found = await discover(root, path, signal);
    const { chosen } = found;
    const report = { ...found.report, ...roots };
    if (signal?.aborted) return { ...shell, discovery: report }; // shutting down: say nothing
    for (const row of report.servers) {
      if (row.status === "left_out") log.info(`zero-config: left out ${row.name}: ${row.why}`);
    }
    if (chosen.length === 0) {
      log.warn(
        `zero-config mode: no usable language server for ${root}; every file call answers ` +
          "NoServerForFile, and session_status shows what was looked for",
      );
      return { ...shell, discovery: report };
    }
    log.warn(
      `zero-config mode: serving ${root} with ${chosen.map((c) => c.preset.name).join(", ")}; ` +
        "nothing is pinned by you — run `theodolite init` and use --config for a pinned setup",
    );
    const config = discoveredConfig(root, chosen, ZERO_CONFIG_SOURCE);
    return { ...config, discovery: withTiers(report, config) };
  } catch (err) {
    log.error(`zero-config: discovery failed: ${String(err)}`);
    const error = err instanceof Error ? err.message : String(err);
    return { ...shell, discovery: { ...emptyReport(root), error, ...roots } };
  }
}

/** Each configured row with where its server stands in the workspace (SPEC §9.1). */
function withTiers(report: DiscoveryReport, config: Config): DiscoveryReport {
  const ws = config.workspaces[0];
  const tiers = new Map(ws ? standings(config, ws).map((s) => [s.server.name, s.tier]) : []);
  return {
    ...report,
    servers: report.servers.map((row) => {
      const tier = tiers.get(row.name);
      return tier === undefined ? row : { ...row, tier };
    }),
  };
}
