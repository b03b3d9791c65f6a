/**
 * Processes as the tests see them through /proc: gone or not (a zombie counts as gone: PID 1
 * may reap lazily, docs/TOOLCHAIN.md#the-compiled-binary-at-run-time), a pid a daemon wrote
 * to a file, a process's tree, and the cleanup of whatever a test started.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import {
  isDead,
  type ProcInfo,
  readProc,
  scanProcs,
  selectTree,
} from "../../src/process/proctree.ts";
import { waitFor, waitForValue } from "./wait.ts";

/** True when `pid` has exited (no /proc entry, or a zombie). */
export function gone(pid: number): boolean {
  return isDead(readProc(pid));
}

/** The pid written to `path`, once the file holds one. */
export function readPid(path: string): number | undefined {
  if (!existsSync(path)) return undefined;
  const n = Number(readFileSync(path, "utf8").trim());
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** `pid` and its live descendants by parent chain, with start times (pids can be reused). */
export function treeOf(pid: number): ProcInfo[] {
  return selectTree(scanProcs(), pid, 0);
}

/** The pids of `pid`'s live descendants. */
export function descendantsOf(pid: number): number[] {
  return treeOf(pid)
    .filter((p) => p.pid !== pid)
    .map((p) => p.pid);
}

/** SIGKILL every pid of `pids` still alive, and forget them: for afterEach, even on failure. */
export function killLeft(pids: Set<number>): void {
  for (const pid of pids) {
    try {
      if (!gone(pid)) process.kill(pid, "SIGKILL");
    } catch {
      // gone between the check and the kill
    }
  }
  pids.clear();
}

/** Live processes whose command line contains `tag` (a hopping daemon's pids change all the time). */
export function livePidsTagged(tag: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "latin1").includes(tag) && !gone(pid)) out.push(pid);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Once a process tagged `tag` runs and has hopped on to another pid (a re-forking daemon). */
export async function hopping(tag: string, boundMs: number): Promise<void> {
  const first = await waitForValue(() => livePidsTagged(tag)[0], boundMs, { what: "a hop" });
  await waitFor(() => !livePidsTagged(tag).includes(first), boundMs, {
    what: "the hop to move on",
  });
}

/** SIGKILL every live process tagged `tag`, until none is left (bounded): for afterEach. */
export function killTagged(tag: string): void {
  for (let round = 0; round < 1000; round++) {
    const pids = livePidsTagged(tag);
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone meanwhile
      }
    }
  }
}

/** The last pid the kernel handed out (pids are allocated in order, wrapping at pid_max). */
function lastPid(): number {
  return Number(readFileSync("/proc/loadavg", "latin1").trim().split(" ").at(-1));
}

/** A check that holds once `n` more pids have been allocated on the machine than now. */
export function pidsAllocatedSince(n: number): () => boolean {
  const max = Number(readFileSync("/proc/sys/kernel/pid_max", "latin1"));
  const from = lastPid();
  return () => (lastPid() - from + max) % max >= n;
}
