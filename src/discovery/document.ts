/**
 * The configuration discovery produces (SPEC §2.1), as a TOML-shaped document: the one that
 * zero-config serves, `init` prints and the real-server tests run. What discovery found is
 * laid over the preset's tables (config/merge.ts); the servers are listed ranked (rank.ts).
 */
import { basename } from "node:path";
import { mergeTables } from "../config/merge.ts";
import { presetServerTable } from "../config/presets.ts";
import type { Config } from "../config/types.ts";
import { validateConfig } from "../config/validate.ts";
import type { ChosenServer } from "./choose.ts";
import { rankServers } from "./rank.ts";

/** A valid workspace name from a directory name. */
export function workspaceNameFor(dir: string): string {
  const name = basename(dir)
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return name.length > 0 ? name : "workspace";
}

/** One chosen server's `[[server]]` table: the preset's, with what discovery found laid over. */
function serverTableOf(d: ChosenServer): Record<string, unknown> {
  const table = presetServerTable(d.preset, d.command, d.version, d.versionCommand);
  return mergeTables(table, {
    initialization_options: d.initializationOptions,
    settings: d.settings,
  });
}

/** The `[[workspace]]` and `[[server]]` tables for `dir` and the chosen servers. */
export function configDocument(dir: string, servers: ChosenServer[]): Record<string, unknown> {
  const tables = servers.map(serverTableOf);
  // a diagnostics-only server (bacon-ls, ruff) diagnoses the files it shares with a server of
  // both roles (rust-analyzer, pyright), which then answers semantics only: routing is never
  // ambiguous (SPEC §4.5)
  for (const linter of servers.filter((d) => d.preset.server.roles.join() === "diagnostics")) {
    const exts = Object.keys(linter.preset.server.extensions);
    for (const [i, d] of servers.entries()) {
      const shares = Object.keys(d.preset.server.extensions).some((e) => exts.includes(e));
      const table = tables[i];
      if (d !== linter && shares && table && d.preset.server.roles.length === 2) {
        table.roles = ["semantics"];
      }
    }
  }
  const { ranked, incidental } = rankServers(servers);
  const workspace: Record<string, unknown> = {
    name: workspaceNameFor(dir),
    root: dir,
    servers: ranked.map((d) => d.preset.name),
  };
  if (incidental.length > 0) workspace.incidental = incidental.map((d) => d.preset.name);
  return { workspace: [workspace], server: tables };
}

/** The validated configuration of that document: what zero-config serves and `init` checks. */
export function discoveredConfig(dir: string, servers: ChosenServer[], source: string): Config {
  return validateConfig(configDocument(dir, servers), source);
}
