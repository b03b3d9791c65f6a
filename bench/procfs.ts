/**
 * The /proc facts the benchmarks read: liveness from /proc/PID/stat and resident memory
 * from /proc/PID/status. Parsed here independently of src/process/proctree.ts, so the
 * reap benchmark does not trust the code it measures.
 */
import { readdirSync, readFileSync } from "node:fs";

export interface StatFacts {
  state: string;
  /** field 22: clock ticks since boot; with the pid it names one process across pid reuse */
  startTime: number;
}

/** State and start time of `pid`, or null when /proc has no such process. */
export function statOf(pid: number): StatFacts | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // comm (field 2) may contain spaces and ')': the fixed fields start after the last ')'.
  const fields = text
    .slice(text.lastIndexOf(")") + 1)
    .trim()
    .split(/\s+/);
  const state = fields[0];
  const startTime = Number(fields[19]);
  if (state === undefined || !Number.isFinite(startTime)) return null;
  return { state, startTime };
}

/**
 * A process to watch: alive while /proc shows the same pid with the same start time in a
 * state other than zombie/dead (PID 1 here reaps lazily, so Z means dead).
 */
export class Watched {
  readonly startTime: number | null;

  constructor(
    readonly label: string,
    readonly pid: number,
  ) {
    this.startTime = statOf(pid)?.startTime ?? null;
  }

  alive(): boolean {
    if (this.startTime === null) return false;
    const s = statOf(this.pid);
    if (s === null || s.startTime !== this.startTime) return false;
    return s.state !== "Z" && s.state !== "X" && s.state !== "x";
  }

  /** SIGKILL by pid if it is still this process (used by cleanup only). */
  kill(): void {
    if (!this.alive()) return;
    try {
      process.kill(this.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** A `Kb`-valued field of /proc/PID/status (VmRSS, VmHWM…) in MB (2^20 bytes), or null. */
export function statusMb(pid: number, field: "VmRSS" | "VmHWM"): number | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return null;
  }
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(text);
  return match ? Number(match[1]) / 1024 : null;
}

/**
 * Proportional set size of `pid` in MB from /proc/PID/smaps_rollup: its private pages plus
 * its share of pages mapped by several processes (the bridge and its supervisors run the
 * same binary, so the code pages count once across them). Null when unreadable.
 */
export function pssMb(pid: number): number | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  } catch {
    return null;
  }
  const match = /^Pss:\s+(\d+)\s+kB/m.exec(text);
  return match ? Number(match[1]) / 1024 : null;
}

/**
 * CPU time `pid` has used, in ms, summed over its threads from /proc/PID/task/TID/schedstat
 * (nanoseconds on the CPU; unlike /proc/PID/stat's clock ticks fine enough for one call).
 * Null when the process is gone.
 */
export function cpuMs(pid: number): number | null {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  let ns = 0;
  for (const tid of tids) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return ns / 1e6;
}
