/**
 * The order zero-config and `init` list a workspace's servers in (SPEC §2.1, §9.1), pure:
 * the servers of the project's own sources first, most files first — the first is the
 * workspace's main server (config/standing.ts) — then the minor ones (`incidental`): files
 * only under test data or tooling directories, or fewer than a tenth of the first's (the
 * web assets of a Go tool); then the data-file servers (`data_files`: JSON, YAML, TOML,
 * Dockerfiles, CMake). Ties keep the presets' order, so a tree always ranks the same.
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

/** A language with fewer of the project's files than the first's over this is minor. */
export const MINOR_SHARE = 10;

/** 0: the project's sources; 1: minor (incidental); 2: data files. `top`: the most files. */
function group(s: RankedServer, top: number): number {
  if (s.preset.server.data_files) return 2;
  const { project, aside } = s.files;
  return project * MINOR_SHARE < top || (project === 0 && aside > 0) ? 1 : 0;
}

/** The servers in rank order (a stable sort: the input's order breaks ties), and the incidental ones. */
export function rankServers<S extends RankedServer>(
  servers: readonly S[],
): { ranked: S[]; incidental: S[] } {
  const sources = servers.filter((s) => !s.preset.server.data_files);
  const top = Math.max(0, ...sources.map((s) => s.files.project));
  const ranked = [...servers].sort(
    (a, b) =>
      group(a, top) - group(b, top) ||
      b.files.project - a.files.project ||
      b.files.aside - a.files.aside,
  );
  return { ranked, incidental: ranked.filter((s) => group(s, top) === 1) };
}
