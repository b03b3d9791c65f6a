/**
 * warmup_open (SPEC §3.3): the first file, by sorted workspace-relative path,
 * that matches the glob. Dot-directories and node_modules are not searched.
 */
import { realpathSync } from "node:fs";
import { join } from "node:path";

export async function findWarmupFile(root: string, pattern: string): Promise<string | undefined> {
  const glob = new Bun.Glob(pattern);
  let best: string | undefined;
  for await (const rel of glob.scan({
    cwd: root,
    onlyFiles: true,
    dot: false,
    followSymlinks: false,
  })) {
    if (rel.split("/").includes("node_modules")) continue;
    if (best === undefined || rel < best) best = rel;
  }
  return best === undefined ? undefined : realpathSync(join(root, best));
}
