/**
 * Who is at the other end of a Unix socket: getsockopt(SO_PEERCRED) through `bun:ffi`,
 * the kernel's record of the peer's pid, uid and gid when it connected. The shared
 * bridge checks it on every connection (SPEC §2.2); null when libc cannot be reached or
 * the call fails (the caller refuses the connection).
 */
import { FFIType, ptr } from "bun:ffi";
import { lazyLibc } from "./libc.ts";

/** Linux values shared by x86-64 and aarch64. */
const SOL_SOCKET = 1;
const SO_PEERCRED = 17;
/** struct ucred: pid_t pid, uid_t uid, gid_t gid */
const UCRED_BYTES = 12;

const symbols = {
  getsockopt: {
    args: [FFIType.i32, FFIType.i32, FFIType.i32, FFIType.ptr, FFIType.ptr],
    returns: FFIType.i32,
  },
} as const;

const libc = lazyLibc(symbols);

export interface PeerCredentials {
  pid: number;
  uid: number;
  gid: number;
}

/** The credentials of the peer of the connected Unix socket `fd`, or null. */
export function peerCredentials(fd: number): PeerCredentials | null {
  const lib = libc();
  if (lib === null) return null;
  const buf = new Uint8Array(UCRED_BYTES);
  const len = new Uint32Array([UCRED_BYTES]);
  if (lib.getsockopt(fd, SOL_SOCKET, SO_PEERCRED, ptr(buf), ptr(len)) !== 0) return null;
  if (len[0] !== UCRED_BYTES) return null;
  const view = new DataView(buf.buffer);
  return {
    pid: view.getInt32(0, true),
    uid: view.getUint32(4, true),
    gid: view.getUint32(8, true),
  };
}

/** The credentials of a Bun socket's peer: Bun has the descriptor, untyped (`fd`). */
export function peerOf(socket: object): PeerCredentials | null {
  const fd = (socket as { fd?: unknown }).fd;
  return typeof fd === "number" && fd >= 0 ? peerCredentials(fd) : null;
}
