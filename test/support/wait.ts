/**
 * Polling with a deadline, for tests: they wait on state, never a fixed sleep, and bound
 * hangs, never speed (docs/SPEC.md §11). The poll interval is a liveness poll; the deadline
 * ends in an error naming what was awaited.
 */

export interface WaitOptions {
  /** between checks (default 10 ms) */
  intervalMs?: number;
  /** what is awaited, for the timeout error */
  what?: string;
}

/** Resolve once `cond()` is true; reject after `timeoutMs`. */
export async function waitFor(
  cond: () => boolean | Promise<boolean>,
  timeoutMs: number,
  opts: WaitOptions = {},
): Promise<void> {
  await waitForValue(async () => ((await cond()) ? true : undefined), timeoutMs, opts);
}

/** Resolve with the first value of `probe()` that is not undefined; reject after `timeoutMs`. */
export async function waitForValue<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs: number,
  opts: WaitOptions = {},
): Promise<T> {
  const interval = opts.intervalMs ?? 10;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() >= deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${opts.what ?? "a condition"}`);
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

/** Resolve with `promise`, or reject if it has not settled after `timeoutMs`. */
export async function within<T>(
  promise: Promise<T>,
  timeoutMs: number,
  what = "a promise",
): Promise<T> {
  let handle: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    handle = setTimeout(
      () => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(handle);
  }
}
