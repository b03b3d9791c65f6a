/**
 * Waiting on state, never on time (SPEC §3.3, §6). Whoever changes session
 * state calls `notify()`; a waiter re-evaluates its condition on every
 * notification. The only timer is the bound that ends in a typed error.
 * (Not to be confused with an `AbortSignal`, which `WaitOptions.signal` is.)
 */

export interface WaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  onTimeout: () => Error;
  onAbort?: () => Error;
}

export class StateChanges {
  private readonly waiters = new Set<() => void>();

  notify(): void {
    for (const wake of [...this.waiters]) wake();
  }

  /** Call `fn` on every notification until the returned function is called. */
  subscribe(fn: () => void): () => void {
    this.waiters.add(fn);
    return () => this.waiters.delete(fn);
  }

  /** Resolves with the first non-undefined value of `check`; `check` may throw to fail the wait. */
  until<T>(check: () => T | undefined, opts: WaitOptions): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finish = (fn: () => void): void => {
        this.waiters.delete(wake);
        if (timer !== undefined) clearTimeout(timer);
        opts.signal?.removeEventListener("abort", onAbort);
        fn();
      };
      const wake = (): void => {
        try {
          const value = check();
          if (value !== undefined) finish(() => resolve(value));
        } catch (err) {
          finish(() => reject(err));
        }
      };
      const onAbort = (): void =>
        finish(() => reject(opts.onAbort ? opts.onAbort() : new Error("aborted")));
      if (opts.signal?.aborted) return onAbort();
      this.waiters.add(wake);
      wake();
      if (!this.waiters.has(wake)) return;
      // the bound of this wait (a typed error on expiry), not a settling delay
      timer = setTimeout(() => finish(() => reject(opts.onTimeout())), opts.timeoutMs);
      opts.signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Resolves on the next notification (used to retry after ContentModified, SPEC §3.3). */
  next(opts: WaitOptions): Promise<void> {
    let first = true;
    return this.until(() => {
      if (first) {
        first = false;
        return undefined;
      }
      return true;
    }, opts).then(() => undefined);
  }
}
