/**
 * Running a child without the privileges of root (SPEC §11): permission tests must see what
 * an ordinary user sees, and root reads any file whatever its mode. Under root (the CI) the
 * child runs as `nobody` through util-linux's `setpriv`; otherwise it runs as the current
 * user, who is unprivileged already. Never a skip. Also: whether this process holds the
 * capability a session's PID namespace needs (SPEC §9.2).
 */
import { chmodSync, readFileSync } from "node:fs";
import { tempDir } from "./temp-dirs.ts";

/** nobody and nogroup on Debian */
export const UNPRIVILEGED_ID = 65534;

export function runningAsRoot(): boolean {
  return process.getuid?.() === 0;
}

/** CAP_SYS_ADMIN in effect here: what a PID namespace per session needs (SPEC §9.2). */
export function hasSysAdmin(): boolean {
  const hex = /^CapEff:\s*([0-9a-f]+)$/m.exec(readFileSync("/proc/self/status", "latin1"))?.[1];
  const CAP_SYS_ADMIN = 21n;
  return hex !== undefined && ((BigInt(`0x${hex}`) >> CAP_SYS_ADMIN) & 1n) === 1n;
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
  const dir = tempDir(prefix);
  chmodSync(dir, 0o777);
  return dir;
}
