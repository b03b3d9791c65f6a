/**
 * A server's diagnostics check runs (SPEC §6: rust-analyzer's cargo check, bacon's): the
 * progress that marks them, the notification that starts one where the bridge starts them,
 * the request answered after a run's publishes, and whether files are asked to publish
 * again. One object, made once per session; null for a server without runs.
 */
import type { ServerConfig } from "../../config/types.ts";

/** A configured notification or request. */
export interface RunMessage {
  method: string;
  params: unknown;
}

export interface Runs {
  /** the $/progress title or token patterns, as written and compiled */
  readonly sources: readonly string[];
  readonly patterns: readonly RegExp[];
  /** the bridge starts every run with this notification (SPEC §5.3); null: the server does */
  readonly start: RunMessage | null;
  /** asked before a run's results are read: it follows the run's publishes */
  readonly barrier: RunMessage | null;
  /** after a run, the files it published are asked to publish once more (republish.ts) */
  readonly republish: boolean;
}

export function runsOf(server: ServerConfig): Runs | null {
  const runs = server.diagnostics_runs;
  if (runs === null) return null;
  const { barrier } = runs;
  return Object.freeze({
    sources: [...runs.progress],
    patterns: runs.progress.map((p) => new RegExp(p)),
    start: runs.start,
    barrier: barrier === null ? null : { method: barrier.method, params: barrier.params },
    republish: barrier?.republish === true,
  });
}
