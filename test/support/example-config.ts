/**
 * bridge.toml.example made concrete for this machine (SPEC §3): its tables as written,
 * with only what the example itself says to adjust filled in — each server's command and
 * exact version (and version_command) from the located real server, the environment and
 * initialization options the real suites need beside the example's own, and workspace
 * roots. Used to run `--check-config` over every preset and to drive the example's
 * workspaces end to end.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import { mergeTables } from "../../src/config/merge.ts";
import { PRESETS } from "../../src/config/presets.ts";
import { REPO } from "./bridge.ts";
import { findBaconLs, findEmmyLua, findGopls } from "./built-servers.ts";
import { findLanguageServer, LANGUAGE_SERVERS } from "./language-servers.ts";
import {
  findClangd,
  findPyright,
  findRustAnalyzer,
  findTypescriptLanguageServer,
  findTypescriptNative,
  type RealServer,
} from "./real-servers.ts";

export const EXAMPLE_PATH = join(REPO, "bridge.toml.example");

type Table = Record<string, unknown>;

export interface ExampleConfig {
  bridge: Table;
  workspace: Table[];
  server: Table[];
}

export function readExample(): ExampleConfig {
  const doc = parse(readFileSync(EXAMPLE_PATH, "utf8")) as unknown as ExampleConfig;
  return { bridge: doc.bridge, workspace: doc.workspace, server: doc.server };
}

/**
 * How each preset's server is located here; null for the presets marked untested, whose
 * servers have no install route on this machine kind (docs/LANGUAGE-SERVERS.md).
 */
export const LOCATORS: Record<string, (() => Promise<RealServer | null>) | null> = {
  "rust-analyzer": findRustAnalyzer,
  "bacon-ls": findBaconLs,
  clangd: findClangd,
  pyright: findPyright,
  "typescript-language-server": findTypescriptLanguageServer,
  "typescript-native": findTypescriptNative,
  gopls: findGopls,
  emmylua_ls: findEmmyLua,
  ...Object.fromEntries(LANGUAGE_SERVERS.map((name) => [name, () => findLanguageServer(name)])),
  ...Object.fromEntries(PRESETS.filter((p) => p.untested).map((p) => [p.name, null])),
};

/** An example [[server]] table with this machine's command, version and extra settings. */
export function filledServer(table: Table, found: RealServer): Table {
  const out: Table = { ...table, command: found.config.command, version: found.version };
  if (found.config.version_command !== null) {
    out.version_command = found.config.version_command;
    delete out.version_args;
  }
  // the real suites' keys laid over the example's, key by key (src/config/merge.ts)
  return mergeTables(out, {
    env: found.config.env,
    initialization_options: found.config.initialization_options,
  });
}

export function serverTable(example: ExampleConfig, name: string): Table {
  const table = example.server.find((s) => s.name === name);
  if (!table) throw new Error(`bridge.toml.example has no [[server]] named ${name}`);
  return table;
}

export function workspaceTable(example: ExampleConfig, name: string): Table {
  const table = example.workspace.find((w) => w.name === name);
  if (!table) throw new Error(`bridge.toml.example has no [[workspace]] named ${name}`);
  return table;
}
