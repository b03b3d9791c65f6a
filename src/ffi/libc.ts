/**
 * libc through `bun:ffi`, for the few calls Bun does not expose (prctl and signal for the
 * process layer, the *at() calls of confined file access, inotify). Each module declares
 * the symbols it needs and loads them once, on first use; off Linux, or where libc cannot
 * be opened, the loader answers null and the caller degrades or says why. The values and
 * the C-string form more than one caller needs are here too.
 */
import { dlopen, type FFIFunction, type Pointer, read } from "bun:ffi";
import { constants } from "node:os";

/** The errno a call interrupted by a signal sets: the caller retries it. */
export const EINTR = constants.errno.EINTR;

/**
 * Close-on-exec for a descriptor the bridge opens (open(2)'s O_CLOEXEC, the same bit as
 * inotify_init1's IN_CLOEXEC; Linux on x86-64 and aarch64): a server never inherits it.
 * node:fs does not export it.
 */
export const O_CLOEXEC = 0o2000000;

const ERRNO_NAMES: Readonly<Record<number, string>> = Object.fromEntries(
  Object.entries(constants.errno).map(([name, value]) => [value, name]),
);

/** The name of an errno value (`ENOENT`), or `E<n>` for one Node does not name. */
export function errnoName(errno: number): string {
  return ERRNO_NAMES[errno] ?? `E${errno}`;
}

/** A path or name as a C string: UTF-8, NUL-terminated. */
export function cString(s: string): Buffer {
  return Buffer.from(`${s}\0`, "utf8");
}

export type LibcSymbols<S extends Record<string, FFIFunction>> = ReturnType<
  typeof dlopen<S>
>["symbols"];

/** A loader for `symbols` from libc: the same functions on every call, or null. */
export function lazyLibc<S extends Record<string, FFIFunction>>(
  symbols: S,
): () => LibcSymbols<S> | null {
  let loaded: LibcSymbols<S> | null | undefined;
  return () => {
    if (loaded !== undefined) return loaded;
    loaded = null;
    if (process.platform === "linux") {
      try {
        loaded = dlopen("libc.so.6", symbols).symbols;
      } catch {
        loaded = null;
      }
    }
    return loaded;
  };
}

/**
 * Why libc cannot be reached through bun:ffi here, or null when it can (one trivial call
 * made). bun:ffi needs the JIT: where JavaScriptCore could not reserve its executable
 * memory (an address-space limit), every dlopen fails with the reason this returns.
 */
export function libcUnavailable(): string | null {
  if (process.platform !== "linux") return `bun:ffi's libc is Linux's; this is ${process.platform}`;
  try {
    const probe = dlopen("libc.so.6", { getpid: { args: [], returns: "i32" } });
    const ok = probe.symbols.getpid() === process.pid;
    probe.close();
    return ok ? null : "getpid() through bun:ffi disagrees with process.pid";
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * errno of the libc call that just failed, through the library's own
 * `__errno_location` (declare it among the symbols). Read it right away, before anything
 * else runs on this thread.
 */
export function lastErrno(errnoLocation: () => Pointer | bigint | null): number {
  const at = errnoLocation();
  return at === null ? 0 : read.i32(at, 0);
}
