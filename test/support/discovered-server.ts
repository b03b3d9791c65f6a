/**
 * The real-server suites' configurations, made by the code users run (SPEC §2.1): for a
 * binary located here, discovery's own steps — its version command, whether it can serve,
 * what it found (a tsserver, a TypeScript library) laid over the preset by the document
 * zero-config serves and `init` prints (src/discovery/document.ts). A suite thus runs what
 * zero-config and `init` give for that binary. A test's own keys (an offline cargo, a cache
 * of its own) are an overlay, laid over the same way (src/config/merge.ts) and kept apart,
 * so what discovery made can be compared on its own (test/real/one-path.test.ts).
 */
import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { mergeTables, type Table } from "../../src/config/merge.ts";
import { findPreset, type Preset } from "../../src/config/presets.ts";
import type { ServerConfig } from "../../src/config/types.ts";
import { type ChosenServer, planProbes } from "../../src/discovery/choose.ts";
import { carryOut } from "../../src/discovery/discover.ts";
import { discoveredConfig } from "../../src/discovery/document.ts";
import type { WorkspaceFiles } from "../../src/discovery/files-served.ts";
import type { WorkspaceToolchain } from "../../src/discovery/toolchain.ts";

/**
 * A fixture copy's toolchain: no TypeScript, virtual environment or bin directory of its
 * own (fixtures are copied without node_modules), its crate, if any, at the root.
 */
export const FIXTURE_TOOLCHAIN: WorkspaceToolchain = {
  typescript: null,
  venv: null,
  bins: [],
  ruffConfig: null,
  cargoAtRoot: true,
};

/** One file of each kind the preset serves: what has discovery look for it. */
export function filesServedBy(preset: Preset): WorkspaceFiles {
  return {
    extensions: new Set(Object.keys(preset.server.extensions)),
    names: new Set(Object.keys(preset.server.filenames)),
    interpreters: new Set(Object.keys(preset.server.shebangs)),
  };
}

/** A directory that exists, for the document's workspace (the server table does not name it). */
const someRoot = () => realpathSync(tmpdir());

/** The chosen server as zero-config serves it: validated, defaults filled in. */
export function serverOf(chosen: ChosenServer, root = someRoot()): ServerConfig {
  const server = discoveredConfig(root, [chosen], "tests").servers[0];
  if (!server) throw new Error(`no server in the document for ${chosen.preset.name}`);
  return server;
}

export type Discovered = { server: ServerConfig } | { missing: string };

/**
 * What discovery configures for the preset when its binary is `command`; `path` is where
 * it looks for what the server needs beside it (`go` for gopls, a `tsc`).
 */
export async function discoveredServer(
  presetName: string,
  command: string,
  path = process.env.PATH ?? "",
): Promise<Discovered> {
  const preset = findPreset(presetName);
  if (!preset) throw new Error(`src/config/presets.ts has no preset named ${presetName}`);
  const root = someRoot();
  const plan = planProbes([preset], filesServedBy(preset), FIXTURE_TOOLCHAIN, root);
  // the binary located, not the first one of its name on PATH
  plan.probe = plan.probe.map((p) => ({ preset: p.preset, command }));
  const { chosen, rows } = await carryOut(plan, FIXTURE_TOOLCHAIN, root, path);
  const first = chosen[0];
  return first ? { server: serverOf(first, root) } : { missing: rows[0]?.why ?? "not looked for" };
}

/** `discovered` with a test's own keys laid over, as discovery lays its findings. */
export function withOverlay(discovered: ServerConfig, overlay: Table): ServerConfig {
  return mergeTables(discovered, overlay);
}
