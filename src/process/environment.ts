/**
 * What the machine must offer before the bridge serves (SPEC §2 "Environment"): a `/proc`
 * of this process's own pid namespace (process trees are found and reaped through it,
 * §9.2; paths resolve through it) and libc through bun:ffi (confined file access, §8.1;
 * the supervisor's prctl and execve, §9.2). Without either the bridge cannot keep its
 * promises, so it says so at start (exit 3) instead of failing calls later with codes
 * that point elsewhere. The texts are pure functions of what was read, tested as such.
 */
import { readFileSync, readlinkSync } from "node:fs";
import { libcUnavailable } from "../ffi/libc.ts";

export interface EnvironmentProblem {
  /** what is missing, as `--check-config` names it */
  what: "/proc" | "bun:ffi";
  message: string;
  hint: string;
}

/** The address-space reservation that lets bun:ffi work under a low RLIMIT_AS. */
export const JIT_RESERVATION_ENV = "BUN_JSC_jitMemoryReservationSize=67108864";

/**
 * Judged from what `/proc/self` links to (null: no such link) and this pid's own stat file
 * (null: unreadable). The link rather than what the files say: qemu-user fakes this
 * process's own files (their fields, not their pid), never the link, and a procfs of
 * another pid namespace links it to another number.
 */
export function procProblem(
  selfLink: string | null,
  ownStat: string | null,
  pid: number,
): EnvironmentProblem | null {
  if (selfLink === null && ownStat === null) {
    return {
      what: "/proc",
      message:
        "/proc is not mounted: theodolite finds, watches and reaps server process trees through it",
      hint: "mount procfs in the sandbox (a container runtime's default; bubblewrap: --proc /proc)",
    };
  }
  if (selfLink === String(pid)) return null;
  return {
    what: "/proc",
    message: `/proc belongs to another pid namespace (/proc/self is ${selfLink ?? "missing"}, this process is ${pid}): process trees would be read wrong`,
    hint: "mount a procfs of the sandbox's own pid namespace on /proc",
  };
}

/** The soft RLIMIT_AS in bytes from `/proc/self/limits`, or null when unlimited or unknown. */
export function addressSpaceLimit(limits: string): number | null {
  const line = /^Max address space\s+(\S+)/m.exec(limits);
  const soft = line?.[1];
  if (soft === undefined || soft === "unlimited") return null;
  const bytes = Number(soft);
  return Number.isSafeInteger(bytes) ? bytes : null;
}

function mib(bytes: number): string {
  return `${Math.round(bytes / 1024 / 1024)} MiB`;
}

/** bun:ffi's failure (null: it works) explained, with the address-space limit in force. */
export function ffiProblem(
  reason: string | null,
  asLimit: number | null,
): EnvironmentProblem | null {
  if (reason === null) return null;
  const limited =
    asLimit === null
      ? ""
      : `; the address space is limited to ${mib(asLimit)} (RLIMIT_AS, ulimit -v), too little for the JIT's default reservation`;
  return {
    what: "bun:ffi",
    message: `libc is unavailable through bun:ffi (${reason})${limited}: theodolite reads workspace files and starts servers through it`,
    hint:
      asLimit === null
        ? "run theodolite where bun:ffi works (Linux, the JIT not disabled by a BUN_JSC_ option)"
        : `start theodolite with ${JIT_RESERVATION_ENV} in its environment, or raise the limit above 2.5 GiB`,
  };
}

function linkOrNull(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** Every problem of this machine, `/proc` first (the bun:ffi text reads a file there). */
export function environmentProblems(): EnvironmentProblem[] {
  const proc = procProblem(
    linkOrNull("/proc/self"),
    readOrNull(`/proc/${process.pid}/stat`),
    process.pid,
  );
  const limits = readOrNull("/proc/self/limits");
  const ffi = ffiProblem(libcUnavailable(), limits === null ? null : addressSpaceLimit(limits));
  return [proc, ffi].filter((p): p is EnvironmentProblem => p !== null);
}
