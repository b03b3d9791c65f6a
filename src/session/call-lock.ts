/**
 * Calls on one session side by side, and a preview that must be alone (SPEC §6.2). A
 * shared call waits only while an exclusive one runs (never for one merely waiting), so a
 * call made inside another cannot deadlock.
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
