/**
 * The files of one shared bridge in the private directory (SPEC §2.2), named after
 * its socket: the socket, the control socket (`daemon status`, `daemon stop`), the
 * lock its daemon holds for its whole life (the kernel lets go of it when the
 * process dies, however it dies), and its log.
 */
import { closeSync, constants } from "node:fs";
import { O_CLOEXEC } from "../ffi/libc.ts";
import { openAt, tryLockExclusive } from "../ffi/syscalls.ts";

export interface DaemonFiles {
  socket: string;
  control: string;
  lock: string;
  log: string;
}

/** The files beside a socket path `<dir>/<name>.sock` (pure). */
export function daemonFiles(socket: string): DaemonFiles {
  const base = socket.endsWith(".sock") ? socket.slice(0, -".sock".length) : socket;
  return { socket, control: `${base}.ctl`, lock: `${base}.lock`, log: `${base}.log` };
}

const LOCK_FLAGS = constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW | O_CLOEXEC;

/** The lock held (its descriptor, kept open for the life of the holder), or null when another holds it. */
export function holdLock(path: string): number | null {
  const fd = openAt(null, path, LOCK_FLAGS, 0o600);
  if (tryLockExclusive(fd)) return fd;
  closeSync(fd);
  return null;
}

/** Whether no live process holds the lock (taken and let go at once). */
export function lockFree(path: string): boolean {
  const fd = holdLock(path);
  if (fd === null) return false;
  closeSync(fd);
  return true;
}
