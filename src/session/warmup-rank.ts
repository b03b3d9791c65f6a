/**
 * Which matching file represents the project (SPEC §3.3 `ready.project_files`), pure: one
 * its project includes, not a declaration nor a tool's configuration, of the server's first
 * language; outside any project an entry point (`index.*`, `main.*`), then the shallowest.
 */
import { posix } from "node:path";

const DECLARATION = /\.d\.(?:[^./]+\.)?[cm]?ts$/;

/** A tool's configuration rather than the project's source. */
function configLike(rel: string): boolean {
  const base = posix.basename(rel);
  return (
    /\.(?:config|conf)\.[^.]+$/.test(base) ||
    /^(?:gulpfile|gruntfile|jakefile)\./i.test(base) ||
    /rc\.[cm]?js$/.test(base)
  );
}

/** Lower is better, compared in order; all zeros is the best a file can be. */
export type WarmupRank = readonly number[];

/** `language`: the index of the file's language among the server's languages. */
export function warmupRank(rel: string, included: boolean, language: number): WarmupRank {
  const kind = [DECLARATION.test(rel) ? 1 : 0, configLike(rel) ? 1 : 0, language];
  if (included) return [0, ...kind, 0, 0];
  const entry = /^(?:index|main)\.[^.]+$/.test(posix.basename(rel)) ? 0 : 1;
  return [1, ...kind, entry, rel.split("/").length - 1];
}

export function compareRanks(a: WarmupRank, b: WarmupRank): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

export const isBestRank = (r: WarmupRank): boolean => r.every((x) => x === 0);
