/**
 * The `/proc` view of process trees (SPEC §9.2): parse `/proc/PID/stat`, pick a
 * supervisor's tree out of a scan, and kill it by explicit pids — never by a
 * negative pgid, so a stale or reused group id can at worst miss a process,
 * not take down an unrelated group wholesale.
 */
import { readdirSync, readFileSync } from "node:fs";

export interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  /** one letter: R S D Z T t X I … */
  state: string;
  /** field 22, clock ticks since boot: with the pid it identifies one process across pid reuse */
  startTime: number;
  /** the executable's name (at most 15 bytes), kept after the command line is gone */
  comm: string;
}

/**
 * Parse one `/proc/PID/stat` line. `comm` is in parentheses and may itself
 * contain spaces and `)`, so the fixed fields are read after the LAST `)`.
 */
export function parseStat(text: string): ProcInfo | null {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  if (open <= 0 || close < open) return null;
  const pid = Number(text.slice(0, open).trim());
  // After ")": state(3) ppid(4) pgrp(5) session(6) … starttime(22) → index 0..19.
  const fields = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  if (fields.length < 20) return null;
  const state = fields[0] ?? "";
  const ppid = Number(fields[1]);
  const pgid = Number(fields[2]);
  const sid = Number(fields[3]);
  const startTime = Number(fields[19]);
  const numbers = [pid, ppid, pgid, sid, startTime];
  if (!/^[A-Za-z]$/.test(state) || numbers.some((n) => !Number.isInteger(n) || n < 0)) {
    return null;
  }
  return { pid, ppid, pgid, sid, state, startTime, comm: text.slice(open + 1, close) };
}

/** The stat of one process, or null when it is gone (or unreadable). */
export function readProc(pid: number): ProcInfo | null {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return null;
  }
}

/** Every process whose stat is readable right now (processes may vanish mid-scan). */
export function scanProcs(): ProcInfo[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  const out: ProcInfo[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const info = readProc(Number(name));
    if (info !== null) out.push(info);
  }
  return out;
}

/**
 * Gone, zombie or dead. PID 1 on these hosts reaps lazily
 * (docs/TOOLCHAIN.md#the-compiled-binary-at-run-time), so a
 * killed process can linger as `Z` for a long time: it is dead for every purpose here.
 */
export function isDead(info: ProcInfo | null): boolean {
  return info === null || info.state === "Z" || info.state === "X" || info.state === "x";
}

/** True when pid exists, is not a zombie, and (if given) has this start time. */
export function isAlive(pid: number, startTime?: number): boolean {
  const info = readProc(pid);
  if (isDead(info)) return false;
  return startTime === undefined || info?.startTime === startTime;
}

/**
 * The tree of a supervisor within one scan: members of group `pgid`, `rootPid`
 * itself, and every process whose parent chain reaches one of those. Dead and
 * zombie processes and `exclude` are left out of the result (but a live child
 * of an excluded or zombie parent is still followed). Sorted by pid.
 */
export function selectTree(
  procs: ProcInfo[],
  rootPid: number,
  pgid: number,
  exclude: number[] = [],
): ProcInfo[] {
  const children = new Map<number, ProcInfo[]>();
  for (const p of procs) {
    const list = children.get(p.ppid);
    if (list === undefined) children.set(p.ppid, [p]);
    else list.push(p);
  }
  const inTree = new Set<number>();
  const queue: number[] = [];
  const add = (pid: number): void => {
    if (inTree.has(pid)) return;
    inTree.add(pid);
    queue.push(pid);
  };
  if (rootPid > 0) add(rootPid);
  // pgid 0 or less names no group (kill(2) would read it as "my group"): never select by it.
  if (pgid > 0) for (const p of procs) if (p.pgid === pgid) add(p.pid);
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of children.get(next) ?? []) add(child.pid);
  }
  const skip = new Set(exclude);
  return procs
    .filter((p) => inTree.has(p.pid) && !skip.has(p.pid) && !isDead(p))
    .sort((a, b) => a.pid - b.pid);
}

export interface ReapOptions {
  exclude?: number[];
  /** give up after this long (default 3000 ms); what is left is reported in `remaining` */
  deadlineMs?: number;
  /**
   * The root's recorded start time. When a live process holds `rootPid` with a
   * different start time, the pid was reused: the kernel frees a pid number only
   * once no process uses it as pid, pgid or sid, so the old group is empty too,
   * and nothing is selected.
   */
  rootStartTime?: number;
}

const DEFAULT_REAP_DEADLINE_MS = 3000;
/** Between rescans while SIGKILLed processes finish dying (liveness poll, bounded by the deadline). */
const REAP_POLL_MS = 5;

function killIfSame(info: ProcInfo): boolean {
  // Re-read right before the kill: the pid must still be the process the scan saw.
  const now = readProc(info.pid);
  if (isDead(now) || now?.startTime !== info.startTime) return false;
  try {
    process.kill(info.pid, "SIGKILL");
    return true;
  } catch {
    return false; // ESRCH: it died meanwhile; EPERM: not ours to kill
  }
}

function rootReused(rootPid: number, rootStartTime: number | undefined): boolean {
  if (rootStartTime === undefined) return false;
  const root = readProc(rootPid);
  return root !== null && root.startTime !== rootStartTime;
}

/**
 * SIGKILL every process of the tree by explicit pid, rescan, repeat until the
 * tree is empty or the deadline passes (a process that forks between scan and
 * kill is caught by the next round).
 */
export async function reapTree(
  rootPid: number,
  pgid: number,
  opts: ReapOptions = {},
): Promise<{ killed: number[]; remaining: number[] }> {
  const deadline = Date.now() + (opts.deadlineMs ?? DEFAULT_REAP_DEADLINE_MS);
  const killed = new Set<number>();
  if (rootReused(rootPid, opts.rootStartTime)) return { killed: [], remaining: [] };
  for (;;) {
    const tree = selectTree(scanProcs(), rootPid, pgid, opts.exclude);
    if (tree.length === 0) return { killed: [...killed], remaining: [] };
    for (const info of tree) if (killIfSame(info)) killed.add(info.pid);
    if (Date.now() >= deadline) {
      const left = selectTree(scanProcs(), rootPid, pgid, opts.exclude);
      return { killed: [...killed], remaining: left.map((p) => p.pid) };
    }
    // Signalled processes take a moment to become zombies: poll the rescan, don't spin.
    await new Promise((resolve) => setTimeout(resolve, REAP_POLL_MS));
  }
}
