/**
 * Orphans re-parented to the bridge (SPEC §9.2). The bridge is a child subreaper
 * (src/serve.ts): when a supervisor dies unexpectedly, or a version check ends
 * (check-run.ts), a daemon that had left its group (setsid + double fork) is re-parented
 * to the bridge instead of PID 1. The bridge's children that live in a session of their
 * own on purpose — supervisors, running checks — are registered here; every other child
 * in another session is such an orphan and dies, round after round until none is left
 * (contain.ts: a daemon that re-forks all the time is caught too), each logged with its
 * command line. Children in the bridge's own session are never touched.
 */
import { log } from "../log.ts";
import { describeKilled, killChildren } from "./contain.ts";
import { readProc } from "./proctree.ts";

/** How long the bridge spends killing orphans re-parented to it, at most. */
const ORPHAN_REAP_DEADLINE_MS = 3000;

/** The bridge's children in sessions of their own that must live: until `release`. */
const kept = new Set<number>();

/** `pid` is a child of ours that leads a session of its own on purpose (not an orphan). */
export function keepChild(pid: number): void {
  kept.add(pid);
}

/** `pid` has exited: from now on a process with that pid is not ours to spare. */
export function releaseChild(pid: number): void {
  kept.delete(pid);
}

/** Kill every orphan re-parented to us (see above); their pids. */
export async function reapAdoptedOrphans(): Promise<number[]> {
  const self = readProc(process.pid);
  if (self === null) return [];
  const r = await killChildren(
    {
      self: process.pid,
      spare: (p) => p.sid === self.sid || kept.has(p.pid),
      ownGroups: [self.pgid],
    },
    ORPHAN_REAP_DEADLINE_MS,
  );
  if (r.killed.length > 0) log.warn(`killed orphaned processes: ${describeKilled(r.killed)}`);
  if (r.remaining.length > 0) log.warn(`could not kill orphans: ${r.remaining.join(" ")}`);
  return r.killed.map((k) => k.pid);
}
