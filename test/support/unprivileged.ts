/**
 * Running a child without the privileges of root (SPEC §11): permission tests must see what
 * an ordinary user sees, and root reads any file whatever its mode. Under root (the CI) the
 * child runs as `nobody` through util-linux's `setpriv`; otherwise it runs as the current
 * user, who is unprivileged already. Never a skip.
 */
import { chmodSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** nobody and nogroup on Debian */
export const UNPRIVILEGED_ID = 65534;

export function runningAsRoot(): boolean {
  return process.getuid?.() === 0;
}

/** The command prefix that runs what follows it as an unprivileged user (it execs). */
export function unprivilegedPrefix(): string[] {
  if (!runningAsRoot()) return [];
  const found = Bun.which("setpriv");
  if (found === null) throw new Error("setpriv (util-linux) is needed to drop root for this test");
  const id = String(UNPRIVILEGED_ID);
  return [found, `--reuid=${id}`, `--regid=${id}`, "--clear-groups", "--"];
}

/** A directory the unprivileged user may read, write and search (a HOME, say). */
export function openTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o777);
  return dir;
}
