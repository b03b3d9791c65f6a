/**
 * A PID namespace per session (SPEC §9.2), where the machine allows it (CAP_SYS_ADMIN):
 * the launcher starts the supervisor as the first process, the init, of a namespace of its
 * own. The kernel then keeps what no code of ours can once it stops running: when the
 * supervisor dies, by any path and in any state, every process of the namespace is
 * SIGKILLed; nothing inside can signal the supervisor or anything outside; every orphan of
 * the tree becomes the supervisor's child. Only the children of the thread that calls
 * `spawnContained` enter it (unshare, the spawn, setns back, all synchronous), so no other
 * child of the bridge ever does. Where it is refused, the supervisor contains the tree as a
 * child subreaper (contain.ts), and the session says why.
 *
 * Inside, pids are the namespace's own, while `/proc` (the bridge's) names every process by
 * its pid outside: the supervisor reads `/proc` by outer pids and signals and waits by inner
 * ones, translated through the `NSpid` line of `/proc/PID/status`.
 */
import { closeSync, openSync, readFileSync } from "node:fs";
import { errnoName } from "../ffi/libc.ts";
import { newPidNamespaceForChildren, pidNamespaceForChildren } from "../ffi/process.ts";

export type ContainmentMode = "pid_namespace" | "subreaper";

/** What holds a session's tree together (session_status `containment`). */
export interface ContainmentInfo {
  mode: ContainmentMode;
  /** why there is no PID namespace; null when there is one */
  reason: string | null;
}

/** The pids of one process in each namespace from the procfs's own inwards (`NSpid`), or []. */
export function parseNsPids(status: string): number[] {
  const line = /^NSpid:([\t 0-9]*)$/m.exec(status)?.[1];
  if (line === undefined) return [];
  return line
    .trim()
    .split(/\s+/)
    .filter((s) => s !== "")
    .map(Number);
}

function nsPidsOf(pid: number | "self"): number[] {
  try {
    return parseNsPids(readFileSync(`/proc/${pid}/status`, "latin1"));
  } catch {
    return [];
  }
}

/** Why the kernel refused a namespace, in a user's words. */
export function refusal(errno: number): string {
  if (errno < 0) return "libc is unavailable through bun:ffi";
  const name = errnoName(errno);
  const why = name === "EPERM" ? ": not root (no CAP_SYS_ADMIN)" : "";
  return `unshare(CLONE_NEWPID) failed with ${name}${why}`;
}

function subreaper(reason: string): ContainmentInfo {
  return { mode: "subreaper", reason };
}

/**
 * `spawn()` (a synchronous `Bun.spawn`, which forks on the calling thread) with its child as
 * the init of a new PID namespace where the kernel allows one; the child's pids in the
 * namespaces confirm it. `restoreFailed` is told when this thread could not be put back
 * into its own namespace (its next children would start in the new one).
 */
export function spawnContained<T extends { pid: number }>(
  spawn: () => T,
  restoreFailed: () => void,
): { child: T; containment: ContainmentInfo } {
  let own: number;
  try {
    own = openSync("/proc/self/ns/pid", "r");
  } catch (err) {
    const code = (err as { code?: string }).code ?? String(err);
    return { child: spawn(), containment: subreaper(`cannot open /proc/self/ns/pid: ${code}`) };
  }
  try {
    // without NSpid nobody could tell a process's pid inside from its pid in /proc
    if (nsPidsOf("self").length === 0) {
      return { child: spawn(), containment: subreaper("the kernel shows no NSpid") };
    }
    const errno = newPidNamespaceForChildren();
    if (errno !== 0) return { child: spawn(), containment: subreaper(refusal(errno)) };
    let child: T;
    try {
      child = spawn();
    } finally {
      if (!pidNamespaceForChildren(own)) restoreFailed();
    }
    const pids = nsPidsOf(child.pid);
    const inside = pids.length >= 2 && pids.at(-1) === 1;
    return {
      child,
      containment: inside
        ? { mode: "pid_namespace", reason: null }
        : subreaper("the supervisor did not start as the namespace's init"),
    };
  } finally {
    closeSync(own);
  }
}

/** The supervisor as init of its session's namespace: how `/proc` names it. */
export interface NamespaceInit {
  readonly outerPid: number;
}

/**
 * This process as the init of a PID namespace below the procfs's (pid 1 here, another pid
 * in `/proc`), or null. Never true of a machine's own init.
 */
export function namespaceInit(): NamespaceInit | null {
  if (process.pid !== 1) return null;
  const pids = nsPidsOf("self");
  const outer = pids[0];
  if (pids.length < 2 || pids.at(-1) !== 1 || outer === undefined || outer === 1) return null;
  return { outerPid: outer };
}

/** The pid `/proc` calls `pid` has in the namespace of its innermost level (ours, for a child). */
export function innerPid(pid: number): number | undefined {
  return nsPidsOf(pid).at(-1);
}

/** Which of `children` (as `/proc` names them) is `inner` in our namespace. */
export function outerPidOf(children: readonly number[], inner: number): number | undefined {
  return children.find((pid) => innerPid(pid) === inner);
}

/** The supervisor's note of a server killed by a signal, which an init cannot re-raise. */
export const SIGNAL_NOTE = "server-signal=";

/**
 * The exit the bridge records: the supervisor's own, unless it is an init that exited
 * `128 + n` after noting that the server died of signal n (an init cannot die of a signal
 * it sends itself).
 */
export function mirroredExit(
  own: { code: number | null; signal: string | null },
  noted: string | undefined,
  signals: Readonly<Record<string, number | undefined>>,
): { code: number | null; signal: string | null } {
  if (noted === undefined || own.signal !== null || own.code === null) return own;
  const signo = signals[noted];
  return signo !== undefined && own.code === 128 + signo ? { code: null, signal: noted } : own;
}
