/**
 * The few libc calls the process layer needs and Bun does not expose, through
 * `bun:ffi` (works from source and in the compiled binary). Every call returns
 * a result instead of throwing: callers degrade when libc is unavailable.
 */
import { FFIType } from "bun:ffi";
import { lazyLibc } from "./libc.ts";

const PR_SET_DUMPABLE = 4;
const PR_SET_CHILD_SUBREAPER = 36;
const SIG_DFL = 0;

const symbols = {
  prctl: {
    args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64],
    returns: FFIType.i32,
  },
  // sighandler_t signal(int, sighandler_t): the handler travels as a plain integer (SIG_DFL = 0).
  signal: { args: [FFIType.i32, FFIType.u64], returns: FFIType.u64 },
  waitpid: { args: [FFIType.i32, FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
  dup2: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
} as const;

const WNOHANG = 1;

const libc = lazyLibc(symbols);

/** prctl(PR_SET_CHILD_SUBREAPER, 1): orphaned descendants re-parent to this process. */
export function setChildSubreaper(): boolean {
  return libc()?.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) === 0;
}

/** prctl(PR_SET_DUMPABLE, 0): no core file for this process. */
export function disableCoreDumps(): boolean {
  return libc()?.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) === 0;
}

/**
 * Restore the default action of a signal, below Bun's own handling (Bun
 * ignores SIGPIPE and SIGXFSZ, and keeps a handler while JS listeners exist).
 * SIG_ERR is all ones.
 */
export function restoreDefaultSignal(signo: number): boolean {
  const lib = libc();
  if (lib === null) return false;
  const previous = BigInt(lib.signal(signo, SIG_DFL));
  return previous !== 0xffff_ffff_ffff_ffffn;
}

/**
 * waitpid(pid, NULL, WNOHANG): collect one exited child's status, never blocking. True when
 * `pid` was collected. Only for children nobody else waits for (Bun waits for the ones it
 * spawned: collecting those here would lose their exit status).
 */
export function collectChild(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  return libc()?.waitpid(pid, null, WNOHANG) === pid;
}

/** dup2(from, to): `to` names what `from` names (the old `to` closed). False when it failed. */
export function duplicateFd(from: number, to: number): boolean {
  return libc()?.dup2(from, to) === to;
}
