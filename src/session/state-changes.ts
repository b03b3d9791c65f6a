/**
 * Waiting on state, never on time (SPEC §3.3, §6): whoever changes session state calls
 * `notify()`, and waiters re-check; the only timer is the bound ending in a typed error.
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

  /** Resolves on the next notification (a failed readiness probe is tried again then). */
  next(opts: WaitOptions): Promise<void> {
    let checks = 0;
    return this.until(() => (++checks > 1 ? true : undefined), opts).then(() => undefined);
  }
}
