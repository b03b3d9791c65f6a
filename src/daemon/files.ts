/**
 * The files of one shared bridge in the private directory (SPEC §2.2), named after
 * its socket: the socket, the control socket (`daemon status`, `daemon stop`), the
 * lock its daemon holds for its whole life (the kernel lets go of it when the
 * process dies, however it dies; the starter takes it and hands it to the daemon it
 * starts, so nobody else starts one meanwhile), and its log with the one before
 * (`.log.1`). A lock is removed only by whoever holds it, so a held lock is always
 * the file its path names: a holder checks that, and takes the new file if not.
 */
import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  lstatSync,
  readFileSync,
  writeSync,
} from "node:fs";
import { O_CLOEXEC } from "../ffi/libc.ts";
import { openAt, tryLockExclusive } from "../ffi/syscalls.ts";

export interface DaemonFiles {
  socket: string;
  control: string;
  lock: string;
  log: string;
}

/** What a daemon writes into its lock: who holds it, for `daemon status` when it does not answer. */
export interface LockInfo {
  pid: number;
  roots: string[];
}

/** The descriptor a started daemon finds its lock on (after stdin, stdout, stderr). */
export const HANDED_LOCK_FD = 3;

/** A bridge's files are `<24 hex>.<kind>`; nothing else in the directory is touched. */
export const BRIDGE_FILE = /^([0-9a-f]{24})\.(sock|ctl|lock|log|log\.1)$/;

/** The files beside a socket path `<dir>/<name>.sock` (pure). */
export function daemonFiles(socket: string): DaemonFiles {
  const base = socket.endsWith(".sock") ? socket.slice(0, -".sock".length) : socket;
  return { socket, control: `${base}.ctl`, lock: `${base}.lock`, log: `${base}.log` };
}

const LOCK_FLAGS = constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW | O_CLOEXEC;
const CHECK_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | O_CLOEXEC;
/** A lock removed under us again and again is given up (another holds the name's files). */
const LOCK_TRIES = 8;

/** Whether descriptor `fd` is the file `path` names now. */
function isFileAt(fd: number, path: string): boolean {
  try {
    const [held, named] = [fstatSync(fd), lstatSync(path)];
    return held.dev === named.dev && held.ino === named.ino;
  } catch {
    return false;
  }
}

/** The lock held (its descriptor, kept open for the life of the holder), or null when another holds it. */
export function holdLock(path: string): number | null {
  for (let i = 0; i < LOCK_TRIES; i++) {
    const fd = openAt(null, path, LOCK_FLAGS, 0o600);
    if (!tryLockExclusive(fd)) {
      closeSync(fd);
      return null;
    }
    if (isFileAt(fd, path)) return fd;
    closeSync(fd); // removed by the holder we waited on: the path's new file is the lock
  }
  return null;
}

/** The lock a starter handed over as `fd`, held now by this process; null when `fd` is not it. */
export function handedLock(fd: number, path: string): number | null {
  return isFileAt(fd, path) && tryLockExclusive(fd) ? fd : null;
}

/**
 * Whether no live process holds the lock (taken and let go at once). Opened read-only:
 * its close is no event for those who wait on the lock (dir-events.ts).
 */
export function lockFree(path: string): boolean {
  let fd: number;
  try {
    fd = openAt(null, path, CHECK_FLAGS);
  } catch (err) {
    if ((err as { code?: string }).code === "ENOENT") return true;
    throw err;
  }
  try {
    return tryLockExclusive(fd);
  } finally {
    closeSync(fd);
  }
}

/** Say who holds the lock, in it. */
export function writeLockInfo(fd: number, info: LockInfo): void {
  ftruncateSync(fd, 0);
  writeSync(fd, JSON.stringify(info), 0);
}

/** Who says they hold a lock, or null. */
export function readLockInfo(path: string): LockInfo | null {
  try {
    const value = JSON.parse(readFileSync(path, "utf8")) as Partial<LockInfo>;
    if (typeof value.pid !== "number" || !Array.isArray(value.roots)) return null;
    return { pid: value.pid, roots: value.roots.filter((r) => typeof r === "string") };
  } catch {
    return null;
  }
}
