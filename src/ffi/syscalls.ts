/**
 * The *at() calls that confined file access needs and Node's fs does not offer (SPEC §8.1),
 * through `bun:ffi` (libc.ts). Failures throw an Error carrying the errno
 * name as `code`, the way node:fs errors do, so callers handle both alike. Descriptors are
 * plain numbers: node:fs reads, writes, fstats and closes them.
 */
import { FFIType } from "bun:ffi";
import { constants } from "node:fs";
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
  __errno_location: { args: [], returns: FFIType.ptr },
} as const;

type Libc = LibcSymbols<typeof symbols>;

const loadLibc = lazyLibc(symbols);

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

export function unlinkAt(dirFd: number, name: string): void {
  const lib = libc();
  const path = cString(name);
  check(() => lib.unlinkat(dirFd, path, 0), lib, "unlinkat", name);
}
