/**
 * The order zero-config and `init` list a workspace's servers in (SPEC §2.1, §9.1), pure:
 * the servers of the project's own sources first, most files first — the first is the
 * workspace's main server (config/standing.ts) — then those whose files lie only under
 * test data or tooling directories (`incidental`), then the data-file servers
 * (`data_files`: JSON, YAML, TOML, Dockerfiles, CMake). Ties keep the presets' order, so
 * the same tree always ranks the same.
 */
import type { Preset } from "../config/presets.ts";
import type { FileCount } from "./files-served.ts";

/**
 * Directories of test data, fixtures, scripts, tools, docs and examples: files there do not
 * make a language the project's, wherever the directory lies.
 */
export const ASIDE_DIRS: ReadonlySet<string> = new Set([
  "testdata",
  "test_data",
  "test-data",
  "fixtures",
  "__fixtures__",
  "scripts",
  "script",
  "tools",
  "tooling",
  "hack",
  "docs",
  "doc",
  "examples",
  "example",
]);

export function isAsideDir(name: string): boolean {
  return ASIDE_DIRS.has(name);
}

export interface RankedServer {
  preset: Preset;
  files: FileCount;
}

/** 0: the project's sources; 1: only under test data or tooling; 2: data files. */
function group(s: RankedServer): number {
  if (s.preset.server.data_files) return 2;
  return s.files.project === 0 && s.files.aside > 0 ? 1 : 0;
}

/** The servers in rank order (a stable sort: the input's order breaks ties), and the incidental ones. */
export function rankServers<S extends RankedServer>(
  servers: readonly S[],
): { ranked: S[]; incidental: S[] } {
  const ranked = [...servers].sort(
    (a, b) =>
      group(a) - group(b) || b.files.project - a.files.project || b.files.aside - a.files.aside,
  );
  return { ranked, incidental: ranked.filter((s) => group(s) === 1) };
}
