/**
 * What a file carries besides its bytes, mode and owner (SPEC §7.4 "files keep what they
 * are"): its inode flags (`chattr`: append-only, immutable, no-dump …) and its extended
 * attributes (ACLs, SELinux labels, `user.*`), read from and written to open descriptors
 * through `bun:ffi`. A file system that has no flags answers ENOTTY (tmpfs, say): that is
 * "no flags", not an error.
 */
import { FFIType } from "bun:ffi";
import { constants } from "node:os";
import { cString, EINTR, errnoName, lastErrno, lazyLibc } from "./libc.ts";

/** _IOR('f', 1, long) and _IOW('f', 2, long) on 64-bit Linux (x86-64 and aarch64). */
const FS_IOC_GETFLAGS = 0x80086601n;
const FS_IOC_SETFLAGS = 0x40086602n;
/** The flags a file's owner may set (the kernel's FS_FL_USER_MODIFIABLE). */
export const USER_MODIFIABLE_FLAGS = 0x000380ff;
/** Longest list of attribute names and longest value Linux allows (XATTR_LIST_MAX, _SIZE_MAX). */
const XATTR_MAX = 65536;

const { ENOTTY, ENOTSUP, EOPNOTSUPP, ENOSYS, EINVAL } = constants.errno;
const NO_SUPPORT = new Set([ENOTTY, ENOTSUP, EOPNOTSUPP, ENOSYS, EINVAL]);

const load = lazyLibc({
  // variadic in C; its third argument is a pointer, passed as one on x86-64 and aarch64
  ioctl: { args: [FFIType.i32, FFIType.u64, FFIType.ptr], returns: FFIType.i32 },
  flistxattr: { args: [FFIType.i32, FFIType.ptr, FFIType.u64], returns: FFIType.i64 },
  fgetxattr: {
    args: [FFIType.i32, FFIType.ptr, FFIType.ptr, FFIType.u64],
    returns: FFIType.i64,
  },
  fsetxattr: {
    args: [FFIType.i32, FFIType.ptr, FFIType.ptr, FFIType.u64, FFIType.i32],
    returns: FFIType.i32,
  },
  fremovexattr: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 },
  fstatfs: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 },
  __errno_location: { args: [], returns: FFIType.ptr },
} as const);

type Lib = NonNullable<ReturnType<typeof load>>;

function lib(): Lib {
  const l = load();
  if (l === null) throw new Error("file attributes need libc through bun:ffi");
  return l;
}

function fail(errno: number, call: string): never {
  const code = errnoName(errno);
  throw Object.assign(new Error(`${code}: ${call}`), { code });
}

/** Retry on EINTR; the errno of a failure, or null on success. */
function attempt(l: Lib, call: () => number | bigint): number | null {
  for (;;) {
    if (Number(call()) >= 0) return null;
    const errno = lastErrno(l.__errno_location);
    if (errno !== EINTR) return errno;
  }
}

/** The inode flags of an open file; 0 where the file system has none. */
export function getFlags(fd: number): number {
  const l = lib();
  const buf = new Uint8Array(8);
  const errno = attempt(l, () => l.ioctl(fd, FS_IOC_GETFLAGS, buf));
  if (errno === null) return new DataView(buf.buffer).getInt32(0, true) >>> 0;
  if (NO_SUPPORT.has(errno)) return 0;
  return fail(errno, "ioctl FS_IOC_GETFLAGS");
}

/** Set the inode flags of an open file (throws when the kernel refuses). */
export function setFlags(fd: number, flags: number): void {
  const l = lib();
  const buf = new Uint8Array(8);
  new DataView(buf.buffer).setInt32(0, flags | 0, true);
  const errno = attempt(l, () => l.ioctl(fd, FS_IOC_SETFLAGS, buf));
  if (errno !== null) fail(errno, "ioctl FS_IOC_SETFLAGS");
}

/**
 * The type of the file system an open file lies on (statfs(2) `f_type`, the first field of
 * `struct statfs` on x86-64 and aarch64), or null when it cannot be had.
 */
export function fileSystemType(fd: number): number | null {
  const l = load();
  if (l === null) return null;
  const buf = new Uint8Array(128);
  if (attempt(l, () => l.fstatfs(fd, buf)) !== null) return null;
  return Number(new DataView(buf.buffer).getBigUint64(0, true));
}

/** Every extended attribute of an open file, name → value; empty where there are none. */
export function readXattrs(fd: number): Map<string, Uint8Array> {
  const l = lib();
  const out = new Map<string, Uint8Array>();
  const names = new Uint8Array(XATTR_MAX);
  let length = 0;
  const errno = attempt(l, () => {
    const n = l.flistxattr(fd, names, BigInt(names.length));
    length = Number(n);
    return n;
  });
  if (errno !== null) {
    if (NO_SUPPORT.has(errno)) return out;
    fail(errno, "flistxattr");
  }
  const value = new Uint8Array(XATTR_MAX);
  for (const name of Buffer.from(names.subarray(0, length)).toString("utf8").split("\0")) {
    if (name === "") continue;
    let size = 0;
    const got = attempt(l, () => {
      const n = l.fgetxattr(fd, cString(name), value, BigInt(value.length));
      size = Number(n);
      return n;
    });
    // removed since it was listed: not there to carry over
    if (got !== null) continue;
    out.set(name, value.slice(0, size));
  }
  return out;
}

/** Set one extended attribute on an open file (throws when the kernel refuses). */
export function writeXattr(fd: number, name: string, value: Uint8Array): void {
  const l = lib();
  const errno = attempt(l, () => l.fsetxattr(fd, cString(name), value, BigInt(value.length), 0));
  if (errno !== null) fail(errno, `fsetxattr ${name}`);
}

/** Remove one extended attribute from an open file (throws when the kernel refuses). */
export function removeXattr(fd: number, name: string): void {
  const l = lib();
  const errno = attempt(l, () => l.fremovexattr(fd, cString(name)));
  if (errno !== null) fail(errno, `fremovexattr ${name}`);
}
