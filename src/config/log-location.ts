/** SPEC §3 (`bridge.log.file`): the log directory lies in a workspace or the temp directory. */
import { existsSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, relative, sep } from "node:path";
import { logOutsideAllowed } from "./config-errors.ts";
import type { Config } from "./types.ts";

function inside(dir: string, base: string): boolean {
  const rel = relative(base, dir);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep));
}

/** The nearest existing ancestor, resolved (the log directory may not exist yet). */
function realExisting(path: string): string {
  let p = path;
  while (!existsSync(p)) {
    const up = dirname(p);
    if (up === p) break;
    p = up;
  }
  return realpathSync(p) + path.slice(p.length);
}

/** The log directory lies in a workspace or the system temp directory, else ConfigInvalid. */
export function checkLogLocation(config: Config): void {
  const file = config.bridge.log.file;
  if (file === null) return;
  const dir = realExisting(dirname(file));
  const allowed = [realExisting(tmpdir()), ...config.workspaces.map((w) => realExisting(w.root))];
  if (!allowed.some((base) => inside(dir, base))) throw logOutsideAllowed(dirname(file));
}
