/**
 * The order zero-config and `init` list a workspace's servers in (SPEC §2.1, §9.1), pure:
 * the project's sources by most files, then the minor (`incidental`: only aside, or under
 * MINOR_SHARE of the first's), then data files; ties keep the presets' order.
 */
import type { Preset } from "../config/presets.ts";
import type { FileCount } from "./files-served.ts";

/** Directories whose files do not make a language the project's, wherever they lie. */
export const ASIDE_DIRS: ReadonlySet<string> = new Set([
  ...["testdata", "test_data", "test-data", "fixtures", "__fixtures__"],
  ...["scripts", "script", "tools", "tooling", "hack"],
  ...["docs", "doc", "examples", "example"],
]);

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
