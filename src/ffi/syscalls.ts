/**
 * The *at() calls that confined file access needs and Node's fs does not offer (SPEC §8.1),
 * through `bun:ffi` (libc.ts). Failures throw an Error carrying the errno
 * name as `code`, the way node:fs errors do, so callers handle both alike. Descriptors are
 * plain numbers: node:fs reads, writes, fstats and closes them.
 */
import { FFIType } from "bun:ffi";
import { constants } from "node:fs";
import { constants as osConstants } from "node:os";
import {
  cString,
  EINTR,
  errnoName,
  lastErrno as errnoOf,
  type LibcSymbols,
  lazyLibc,
  O_CLOEXEC,
} from "./libc.ts";

/** Linux values shared by x86-64 and aarch64 (node:fs does not export them). */
const O_PATH = 0o10000000;
const AT_FDCWD = -100;
const LOCK_EX = 2;
const LOCK_NB = 4;
const { EWOULDBLOCK, EINVAL, ENOSYS, EOPNOTSUPP } = osConstants.errno;

export const OPEN = {
  /** a directory step of a walk: no symlink, no read permission needed */
  dirStep: O_PATH | constants.O_DIRECTORY | constants.O_NOFOLLOW | O_CLOEXEC,
  /** a directory the caller will fsync and create entries in */
  dirHandle: constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | O_CLOEXEC,
  /** a file to read: never a symlink, never blocks (a FIFO opens at once), never a tty */
  readFile:
    constants.O_RDONLY |
    constants.O_NOFOLLOW |
    constants.O_NONBLOCK |
    constants.O_NOCTTY |
    O_CLOEXEC,
  /** any entry, a link itself included, only to learn that it exists */
  entry: O_PATH | constants.O_NOFOLLOW | O_CLOEXEC,
  /** a private record file: created here or not at all, readable and writable */
  createRecord:
    constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | O_CLOEXEC,
  /** a new temp file: created here or not at all */
  createExclusive:
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | O_CLOEXEC,
} as const;

const symbols = {
  openat: { args: [FFIType.i32, FFIType.ptr, FFIType.i32, FFIType.u32], returns: FFIType.i32 },
  renameat: {
    args: [FFIType.i32, FFIType.ptr, FFIType.i32, FFIType.ptr],
    returns: FFIType.i32,
  },
  unlinkat: { args: [FFIType.i32, FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
  linkat: {
    args: [FFIType.i32, FFIType.ptr, FFIType.i32, FFIType.ptr, FFIType.i32],
    returns: FFIType.i32,
  },
  flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
  __errno_location: { args: [], returns: FFIType.ptr },
} as const;

type Libc = LibcSymbols<typeof symbols>;

const loadLibc = lazyLibc(symbols);

/** renameat2 (glibc 2.28+), loaded apart: a libc without it leaves the others usable. */
const loadRenameat2 = lazyLibc({
  renameat2: {
    args: [FFIType.i32, FFIType.ptr, FFIType.i32, FFIType.ptr, FFIType.u32],
    returns: FFIType.i32,
  },
  __errno_location: { args: [], returns: FFIType.ptr },
} as const);
const RENAME_EXCHANGE = 2;

function libc(): Libc {
  const lib = loadLibc();
  if (lib === null)
    throw new Error("confined file access needs libc (openat, renameat) through bun:ffi");
  return lib;
}

/** errno of the call that just failed: read right away, before anything else runs on this thread. */
function lastErrno(lib: Libc): number {
  return errnoOf(lib.__errno_location);
}

function sysError(errno: number, syscall: string, name: string): NodeJS.ErrnoException {
  const code = errnoName(errno);
  return Object.assign(new Error(`${code}: ${syscall} ${JSON.stringify(name)}`), {
    code,
    errno: -errno,
    syscall,
  });
}

/** Retry on EINTR; throw the errno otherwise. */
function check(call: () => number, lib: Libc, syscall: string, name: string): number {
  for (;;) {
    const r = call();
    if (r >= 0) return r;
    const errno = lastErrno(lib);
    if (errno !== EINTR) throw sysError(errno, syscall, name);
  }
}

/** openat(2); `dirFd` null opens an absolute path. */
export function openAt(dirFd: number | null, name: string, flags: number, mode = 0): number {
  const lib = libc();
  const path = cString(name);
  return check(() => lib.openat(dirFd ?? AT_FDCWD, path, flags, mode), lib, "openat", name);
}

export function renameAt(dirFd: number, from: string, to: string): void {
  const lib = libc();
  const a = cString(from);
  const b = cString(to);
  check(() => lib.renameat(dirFd, a, dirFd, b), lib, "renameat", to);
}

/**
 * Swap two entries of `dirFd` atomically (renameat2 RENAME_EXCHANGE): each name then holds
 * what the other held. False where libc or the file system does not offer it (EINVAL,
 * ENOSYS, EOPNOTSUPP); any other failure throws.
 */
export function exchangeAt(dirFd: number, a: string, b: string): boolean {
  const lib = loadRenameat2();
  if (lib === null) return false;
  const pa = cString(a);
  const pb = cString(b);
  for (;;) {
    if (lib.renameat2(dirFd, pa, dirFd, pb, RENAME_EXCHANGE) === 0) return true;
    const errno = errnoOf(lib.__errno_location);
    if (errno === EINVAL || errno === ENOSYS || errno === EOPNOTSUPP) return false;
    if (errno !== EINTR) throw sysError(errno, "renameat2", b);
  }
}

/** A second name for the file `from` names in `dirFd` (never following a link). */
export function linkAt(dirFd: number, from: string, to: string): void {
  const lib = libc();
  const a = cString(from);
  const b = cString(to);
  check(() => lib.linkat(dirFd, a, dirFd, b, 0), lib, "linkat", to);
}

/**
 * An exclusive advisory lock on an open file, without waiting: false when another open
 * file description holds it. The kernel drops it when the last descriptor closes, so a
 * killed holder never keeps it.
 */
export function tryLockExclusive(fd: number): boolean {
  const lib = libc();
  for (;;) {
    if (lib.flock(fd, LOCK_EX | LOCK_NB) === 0) return true;
    const errno = lastErrno(lib);
    if (errno === EWOULDBLOCK) return false;
    if (errno !== EINTR) throw sysError(errno, "flock", String(fd));
  }
}

export function unlinkAt(dirFd: number, name: string): void {
  const lib = libc();
  const path = cString(name);
  check(() => lib.unlinkat(dirFd, path, 0), lib, "unlinkat", name);
}
