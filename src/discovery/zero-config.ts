/**
 * Zero-config mode (SPEC §2.1): serving the current directory without a configuration
 * file. The shell — that directory as the only workspace, default bridge settings, no
 * server yet — exists at once, so MCP `initialize` never waits for discovery; discovery
 * fills the servers in after the handshake. It never fails: with no usable server the
 * bridge serves with none, and the report says what was looked for and why each preset
 * was left out. A directory it does not serve (the root, the home directory, …) starts
 * no discovery at all — unless the MCP client lists a root it serves (client-roots.ts):
 * then the first such root is the workspace. ConfigInvalid stays for configuration files.
 */
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { standings } from "../config/standing.ts";
import type { Config, DiscoveryReport } from "../config/types.ts";
import { defaultBridgeConfig } from "../config/validate.ts";
import { log } from "../log.ts";
import { discover } from "./discover.ts";
import { discoveredConfig, workspaceNameFor } from "./document.ts";
import { lookAtTop, placesOf, refusal } from "./root-guard.ts";

export const ZERO_CONFIG_SOURCE = "zero-config";

/**
 * The shell for `cwd`. A directory zero-config does not serve (root-guard.ts) gets its
 * report at once, with the refusal: discovery then runs nothing there.
 */
export function zeroConfigShell(cwd: string, env: NodeJS.ProcessEnv = process.env): Config {
  let root = resolve(cwd);
  try {
    root = realpathSync(root);
  } catch {
    // a directory removed under us: discovery will find nothing there
  }
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

function failedReport(root: string, err: unknown): DiscoveryReport {
  return { ...emptyReport(root), error: err instanceof Error ? err.message : String(err) };
}

/**
 * The shell with the servers discovery chose (or none), and the report. Never throws;
 * `signal` (the bridge shutting down) stops the version commands still running.
 */
export async function discoverZeroConfig(
  shell: Config,
  signal?: AbortSignal,
  path?: string,
): Promise<Config> {
  const root = shell.workspaces[0]?.root ?? resolve(".");
  if (shell.discovery?.refused) return shell; // said at start (serve.ts); nothing runs here
  try {
    const found = await discover(root, path, signal);
    const { chosen } = found;
    const report = { ...found.report, ...rootsOf(shell) };
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
    return { ...config, discovery: { ...withTiers(report, config), ...rootsOf(shell) } };
  } catch (err) {
    log.error(`zero-config: discovery failed: ${String(err)}`);
    return { ...shell, discovery: { ...failedReport(root, err), ...rootsOf(shell) } };
  }
}

/** The client's roots as the shell's report holds them (a shell for a root it listed). */
function rootsOf(shell: Config): Pick<DiscoveryReport, "roots"> {
  const roots = shell.discovery?.roots;
  return roots ? { roots } : {};
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
