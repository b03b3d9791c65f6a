/** A Workspace object over a directory, as the session manager makes one, for tests and benchmarks. */
import { InotifyHub } from "../../src/workspace/watch-hub.ts";
import { Workspace } from "../../src/workspace/workspace.ts";

export function workspaceAt(
  root: string,
  limits: { maxFileBytes?: number; maxWatches?: number; name?: string } = {},
): Workspace {
  return new Workspace(
    { name: limits.name ?? "ws", root, servers: [], file_dirs: {}, incidental: [] },
    {
      maxFileBytes: limits.maxFileBytes ?? Number.MAX_SAFE_INTEGER,
      maxWatches: limits.maxWatches ?? 8192,
    },
    new InotifyHub(),
  );
}
