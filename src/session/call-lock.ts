/**
 * Calls on one session side by side, and a call that must be alone (SPEC §6.2): a
 * `diagnostics {contents}` preview holds the server's documents in proposed texts, so no
 * other call may answer from them. `shared` calls run together and wait only while an
 * exclusive one runs; an `exclusive` call waits until no call runs. A shared call never
 * waits for an exclusive one that is merely waiting, so a call made inside another on the
 * same session cannot deadlock; a preview waits for a moment without calls.
 */
export class CallLock {
  private running = 0;
  private alone = false;
  /** calls waiting for a preview to end */
  private waiting = 0;
  private readonly wakers = new Set<() => void>();

  async shared<T>(fn: () => Promise<T>): Promise<T> {
    if (this.alone) {
      this.waiting += 1;
      try {
        while (this.alone) await this.changed();
      } finally {
        this.waiting -= 1;
      }
    }
    this.running += 1;
    try {
      return await fn();
    } finally {
      this.running -= 1;
      this.wake();
    }
  }

  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    while (this.alone || this.running > 0) await this.changed();
    this.alone = true;
    try {
      return await fn();
    } finally {
      this.alone = false;
      this.wake();
    }
  }

  /** session_status (SPEC §10): while a preview runs alone, the calls waiting for it. */
  status(): { previewing: { waiting: number } } | Record<string, never> {
    return this.alone ? { previewing: { waiting: this.waiting } } : {};
  }

  private changed(): Promise<void> {
    return new Promise((resolve) => this.wakers.add(resolve));
  }

  private wake(): void {
    const all = [...this.wakers];
    this.wakers.clear();
    for (const w of all) w();
  }
}
