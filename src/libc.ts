/**
 * libc through `bun:ffi`, for the few calls Bun does not expose (prctl and signal for the
 * process layer, the *at() calls of confined file access, inotify). Each module declares
 * the symbols it needs and loads them once, on first use; off Linux, or where libc cannot
 * be opened, the loader answers null and the caller degrades or says why.
 */
import { dlopen, type FFIFunction, type Pointer, read } from "bun:ffi";

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
 * errno of the libc call that just failed, through the library's own
 * `__errno_location` (declare it among the symbols). Read it right away, before anything
 * else runs on this thread.
 */
export function lastErrno(errnoLocation: () => Pointer | bigint | null): number {
  const at = errnoLocation();
  return at === null ? 0 : read.i32(at, 0);
}
