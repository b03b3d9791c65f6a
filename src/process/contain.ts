/**
 * Containment of a tree that forks faster than `/proc` can be scanned (SPEC §9.2): a
 * daemon that re-forks every millisecond, each parent exiting at once, has moved on
 * before a full scan of `/proc` ends. A child subreaper is the parent of every orphan of
 * its tree, so its own children — read from `/proc/<pid>/task/<tid>/children`, a few
 * small reads, never a scan — are the tree's roots. `killChildren` kills them, each by
 * pid (a pid stays ours until we collect it, so it cannot name another process) and,
 * for a child that leads another group or sits in one, that group at once (one
 * `kill(-pgid)` stops a whole hopping group, forks in flight included), round after
 * round until no child is alive. Children that exited are collected (`waitpid`), so a
 * hopping daemon cannot fill the pid space with zombies meanwhile. The init of a session's
 * PID namespace needs no rounds: `killNamespace` stops the whole namespace, reads what it
 * holds, and kills it with one kill.
 */
import { readdirSync, readFileSync } from "node:fs";
import { collectChild } from "../ffi/process.ts";
import type { NamespaceInit } from "./pid-namespace.ts";
import { isDead, type ProcInfo, readProc } from "./proctree.ts";

/** The direct children of `pid` (zombies included), from its threads' `children` files. */
export function childrenOf(pid: number): number[] {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const out = new Set<number>();
  for (const tid of tids) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/task/${tid}/children`, "latin1");
    } catch {
      continue; // the thread ended meanwhile
    }
    for (const part of text.split(" ")) {
      const child = Number(part);
      if (part !== "" && Number.isSafeInteger(child) && child > 0) out.add(child);
    }
  }
  return [...out];
}

/**
 * The command line of `pid`, for the log: one line of at most `max` characters; a process
 * exiting right now has none any more, and is named by `[comm]` from its stat, as `ps` does.
 */
export function commandLine(pid: number, max = 160, comm?: string): string {
  const unnamed = comm === undefined || comm === "" ? "?" : `[${comm}]`;
  let raw: string;
  try {
    raw = readFileSync(`/proc/${pid}/cmdline`, "latin1");
  } catch {
    return unnamed;
  }
  // NULs between arguments, and any white space inside one, as single spaces
  const text = raw
    .slice(0, 4 * max)
    .replace(/[\0\s]+/g, " ")
    .trim();
  return text.length > max ? `${text.slice(0, max)}…` : text || unnamed;
}

export interface ChildRules {
  /** the parent whose children these are (the caller itself) */
  self: number;
  /** a child that must live (the bridge's live supervisors); never killed nor collected */
  spare?: (child: ProcInfo) => boolean;
  /** a child someone else waits for (Bun's own children): killed, never collected here */
  waitedFor?: (pid: number) => boolean;
  /** groups never signalled whole (the caller's own) */
  ownGroups: readonly number[];
  /**
   * A child's pid in the caller's own namespace, for waitpid, when `/proc` names it
   * otherwise (an init of a PID namespace, pid-namespace.ts); the same pid by default
   */
  own?: (pid: number) => number | undefined;
}

/** Collect the exited children nobody else waits for; how many. */
export function collectExited(rules: ChildRules): number {
  let n = 0;
  for (const pid of childrenOf(rules.self)) {
    if (rules.waitedFor?.(pid)) continue;
    // a zombie still has its stat; without one, nothing says whose the pid is
    const info = readProc(pid);
    if (info === null || !isDead(info) || rules.spare?.(info)) continue;
    const own = rules.own ? rules.own(pid) : pid;
    if (own !== undefined && collectChild(own)) n += 1;
  }
  return n;
}

function signal(target: number, sig: NodeJS.Signals): void {
  try {
    process.kill(target, sig);
  } catch {
    // ESRCH: gone meanwhile; EPERM: not ours
  }
}

export interface Killed {
  pid: number;
  command: string;
}

export interface Containment {
  /** children killed, with their command lines read right before */
  killed: Killed[];
  /** children still alive at the deadline */
  remaining: number[];
  rounds: number;
}

/** Between rounds while killed children finish dying: a liveness poll, bounded by the deadline. */
const ROUND_PAUSE_MS = 1;

/**
 * Kill every live child of `rules.self` (but the spared), the groups they are in (but
 * `ownGroups`), and whatever becomes a child meanwhile, until a round finds none alive or
 * `deadlineMs` passes. Exited children are collected as the rounds go.
 */
export async function killChildren(rules: ChildRules, deadlineMs: number): Promise<Containment> {
  const deadline = Date.now() + deadlineMs;
  const killed = new Map<number, Killed>();
  const own = new Set(rules.ownGroups);
  for (let rounds = 1; ; rounds++) {
    let alive = 0;
    let fresh = 0;
    for (const pid of childrenOf(rules.self)) {
      const info = readProc(pid);
      if (info === null || isDead(info) || rules.spare?.(info)) continue;
      alive += 1;
      if (!killed.has(pid)) {
        fresh += 1;
        killed.set(pid, { pid, command: commandLine(pid, undefined, info.comm) });
      }
      // the group first: a member forking right now is stopped with it
      if (info.pgid > 1 && !own.has(info.pgid)) signal(-info.pgid, "SIGKILL");
      signal(pid, "SIGKILL");
    }
    // a child that exited before the list was read handed its own children to us meanwhile:
    // once it is collected, another round looks for them
    const collected = collectExited(rules);
    if (alive === 0 && collected === 0)
      return { killed: [...killed.values()], remaining: [], rounds };
    if (Date.now() >= deadline) {
      return { killed: [...killed.values()], remaining: liveChildren(rules), rounds };
    }
    // new children: straight on; only children already signalled: let them die first
    await new Promise((resolve) =>
      fresh > 0 ? setImmediate(resolve) : setTimeout(resolve, ROUND_PAUSE_MS),
    );
  }
}

/** The children of `rules.self` alive now, but the spared. */
function liveChildren(rules: ChildRules): number[] {
  return childrenOf(rules.self).filter((pid) => {
    const info = readProc(pid);
    return info !== null && !isDead(info) && !rules.spare?.(info);
  });
}

/**
 * The live processes below `rules.self` (but the spared and their trees), by parent chain:
 * each one's children read from its threads' `children` files. Stops at the deadline.
 */
function liveTree(rules: ChildRules, deadline: number): Killed[] {
  const out: Killed[] = [];
  const queue = childrenOf(rules.self);
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    if (Date.now() >= deadline) break;
    const info = readProc(pid);
    if (info === null || isDead(info) || rules.spare?.(info)) continue;
    out.push({ pid, command: commandLine(pid, undefined, info.comm) });
    queue.push(...childrenOf(pid));
  }
  return out;
}

const samePids = (a: readonly Killed[], b: readonly Killed[]): boolean =>
  a.length === b.length && a.every((k, i) => k.pid === b[i]?.pid);

/**
 * As the init of the session's PID namespace (pid-namespace.ts): `kill(-1)` reaches every
 * process of the namespace at once, a fork in flight included, and nothing outside it.
 * SIGSTOP first: no process forks any more, so the tree read then is the one SIGKILL takes.
 * Read while it runs, a daemon hopping every millisecond could be missed: the hop listed
 * among the children has exited by the time it is looked at, and its successor was not
 * listed yet. The tree is read until two readings agree (an exit already under way ends),
 * SIGSTOP sent again before each; then SIGKILL, and exited children are collected until
 * none is alive, or `deadlineMs`. What the tree held is named, with command lines.
 */
export async function killNamespace(
  init: NamespaceInit,
  rules: ChildRules,
  deadlineMs: number,
): Promise<Containment> {
  const deadline = Date.now() + deadlineMs;
  // pid 1 that /proc names otherwise: an init of a namespace below it, never the machine's
  const ours = process.pid === 1 && init.outerPid !== 1;
  let killed: Killed[] = [];
  for (let before: Killed[] | undefined; ours && Date.now() < deadline; before = killed) {
    signal(-1, "SIGSTOP");
    killed = liveTree(rules, deadline);
    if (before !== undefined && samePids(before, killed)) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (ours) signal(-1, "SIGKILL");
  for (let rounds = 1; ; rounds++) {
    collectExited(rules);
    const remaining = liveChildren(rules);
    if (remaining.length === 0 || Date.now() >= deadline) return { killed, remaining, rounds };
    await new Promise((resolve) => setTimeout(resolve, ROUND_PAUSE_MS));
  }
}

/** "pid (command)" for at most `max` of them, then how many more: one log line. */
export function describeKilled(killed: readonly Killed[], max = 8): string {
  const named = killed.slice(0, max).map((k) => `${k.pid} (${k.command})`);
  const more = killed.length > max ? `, and ${killed.length - max} more` : "";
  return `${named.join(", ")}${more}`;
}
