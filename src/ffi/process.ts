/**
 * The few libc calls the process layer needs and Bun does not expose, through
 * `bun:ffi` (works from source and in the compiled binary): prctl, signal dispositions
 * and mask, descriptor flags, getppid, execve, the PID namespace of new children. Every call returns a result instead of
 * throwing: callers degrade, or say why, when libc is unavailable.
 */
import { FFIType, ptr as ptrOf } from "bun:ffi";
import { cString, lastErrno, lazyLibc } from "./libc.ts";

const PR_SET_PDEATHSIG = 1;
const PR_SET_DUMPABLE = 4;
const PR_SET_CHILD_SUBREAPER = 36;
const SIG_DFL = 0;
const SIG_IGN = 1n;
const SIG_SETMASK = 2;
const F_GETFD = 1;
const F_SETFD = 2;
const FD_CLOEXEC = 1;
/** Highest signal number on Linux (x86-64 and aarch64). */
const NSIG_MAX = 64;
/** Room for sigset_t and struct sigaction of glibc and musl (at most 152 bytes). */
const SIG_BUFFER_BYTES = 256;

const symbols = {
  prctl: {
    args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64],
    returns: FFIType.i32,
  },
  // sighandler_t signal(int, sighandler_t): the handler travels as a plain integer (SIG_DFL = 0).
  signal: { args: [FFIType.i32, FFIType.u64], returns: FFIType.u64 },
  sigaction: { args: [FFIType.i32, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
  sigprocmask: { args: [FFIType.i32, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
  // variadic in C; its third argument is an int, passed as one on x86-64 and aarch64
  fcntl: { args: [FFIType.i32, FFIType.i32, FFIType.i32], returns: FFIType.i32 },
  getppid: { args: [], returns: FFIType.i32 },
  execve: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
  __errno_location: { args: [], returns: FFIType.ptr },
  waitpid: { args: [FFIType.i32, FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
  dup2: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
  unshare: { args: [FFIType.i32], returns: FFIType.i32 },
  setns: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
} as const;

const WNOHANG = 1;
const CLONE_NEWPID = 0x20000000;

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
 * prctl(PR_SET_PDEATHSIG, signo): the kernel sends `signo` to this process when the
 * thread that started it exits. Kept across execve (of a program that is not set-user-ID).
 */
export function setParentDeathSignal(signo: number): boolean {
  return libc()?.prctl(PR_SET_PDEATHSIG, signo, 0, 0, 0) === 0;
}

/** getppid(2), or null without libc. */
export function parentPid(): number | null {
  return libc()?.getppid() ?? null;
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
 * What a freshly started program expects, set up before execve: no signal blocked, and
 * no signal ignored (an ignored disposition survives execve; a handler does not). Only
 * ignored signals are touched, so no handler of this process is replaced before the
 * exec. The handler is the first field of struct sigaction in glibc and musl.
 */
export function defaultSignalsForExec(): boolean {
  const lib = libc();
  if (lib === null) return false;
  const action = new BigUint64Array(SIG_BUFFER_BYTES / 8);
  for (let signo = 1; signo <= NSIG_MAX; signo++) {
    if (lib.sigaction(signo, null, action) !== 0) continue; // not a signal we may touch
    if (action[0] === SIG_IGN) lib.signal(signo, SIG_DFL);
  }
  const empty = new Uint8Array(SIG_BUFFER_BYTES);
  return lib.sigprocmask(SIG_SETMASK, empty, null) === 0;
}

/** Set close-on-exec on each of `fds`; the ones that failed (already closed) are returned. */
export function closeOnExec(fds: readonly number[]): number[] | null {
  const lib = libc();
  if (lib === null) return null;
  const failed: number[] = [];
  for (const fd of fds) {
    const flags = lib.fcntl(fd, F_GETFD, 0);
    if (flags < 0 || lib.fcntl(fd, F_SETFD, flags | FD_CLOEXEC) < 0) failed.push(fd);
  }
  return failed;
}

/** A NULL-terminated array of C strings, and the buffers it points into (kept alive with it). */
function cStringArray(items: readonly string[]): { array: BigUint64Array; keep: Buffer[] } {
  const keep = items.map(cString);
  const array = new BigUint64Array(keep.length + 1);
  keep.forEach((buf, i) => {
    array[i] = BigInt(ptrOf(buf));
  });
  return { array, keep };
}

/**
 * execve(2): replace this process with `path`. Returns only on failure, with the errno
 * (0 when libc is unavailable).
 */
export function execve(path: string, argv: readonly string[], env: Record<string, string>): number {
  const lib = libc();
  if (lib === null) return 0;
  const file = cString(path);
  const args = cStringArray(argv);
  const envp = cStringArray(Object.entries(env).map(([k, v]) => `${k}=${v}`));
  lib.execve(file, args.array, envp.array);
  const errno = lastErrno(lib.__errno_location);
  // the buffers must outlive the call: referenced until here
  void [args.keep, envp.keep];
  return errno;
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

/**
 * unshare(CLONE_NEWPID): the next child this thread starts is the first process (init) of a
 * new PID namespace; this process itself stays where it is. 0, or the errno (-1 without libc).
 */
export function newPidNamespaceForChildren(): number {
  const lib = libc();
  if (lib === null) return -1;
  return lib.unshare(CLONE_NEWPID) === 0 ? 0 : lastErrno(lib.__errno_location);
}

/** setns(fd, CLONE_NEWPID): this thread's next children start in the namespace `fd` names. */
export function pidNamespaceForChildren(fd: number): boolean {
  return libc()?.setns(fd, CLONE_NEWPID) === 0;
}
