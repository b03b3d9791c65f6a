/**
 * Discovery's choice made on paper, for the unit tests of src/discovery: a workspace
 * toolchain by hand, every probed preset "found" at /bin/<name>, and the plan and choice
 * `planProbes` and `choose` make from them.
 */
import { PRESETS } from "../../src/config/presets.ts";
import {
  choose,
  type ProbeOutcome,
  type ProbePlan,
  planProbes,
} from "../../src/discovery/choose.ts";
import type { WorkspaceToolchain } from "../../src/discovery/toolchain.ts";

export const ROOT = "/w";
export const NONE: WorkspaceToolchain = {
  typescript: null,
  venv: null,
  bins: [],
  ruffConfig: null,
  cargoAtRoot: true,
};

export function withTypescript(version: string): WorkspaceToolchain {
  const pkg = `${ROOT}/node_modules/typescript`;
  const major = Number.parseInt(version, 10);
  return {
    ...NONE,
    typescript: {
      version,
      major,
      package: pkg,
      tsserver: major < 7 ? `${pkg}/lib/tsserver.js` : null,
      tsc: `${pkg}/bin/tsc`,
    },
  };
}

/** Every probed preset found at /bin/<name> with the given version (default "1.0"). */
export function foundAll(
  plan: ProbePlan,
  versions: Record<string, string | null> = {},
): ProbeOutcome[] {
  return plan.probe.map(({ preset, command }) => {
    const version = versions[preset.name];
    if (version === null) return { missing: `\`${preset.binaries[0]}\` not found` };
    return {
      found: {
        command: command ?? `/bin/${preset.binaries[0]}`,
        version: version ?? "1.0",
        versionCommand: null,
      },
    };
  });
}

/**
 * The plan for files with these extensions (and these file names and `#!` interpreters), and
 * the choice when `versions` says what was found (null: missing).
 */
export function decide(
  exts: string[],
  toolchain: WorkspaceToolchain,
  versions = {},
  more: { names?: string[]; interpreters?: string[] } = {},
) {
  const files = {
    extensions: new Set(exts),
    names: new Set(more.names ?? []),
    interpreters: new Set(more.interpreters ?? []),
  };
  const plan = planProbes(PRESETS, files, toolchain, ROOT);
  return { plan, ...choose(plan, foundAll(plan, versions), toolchain, ROOT) };
}

export const names = (xs: { preset: { name: string } }[]) => xs.map((x) => x.preset.name);
export const row = (rows: { name: string; status: string; why: string }[], name: string) =>
  rows.find((r) => r.name === name);
