/**
 * One apply at a time, with a turn of the event loop between its files (SPEC §7.4, §9.2).
 * An apply plans, checks and prepares its files one by one and lets the bridge read its
 * input between two of them, so a status call or a ping is answered while it runs; the
 * next apply starts when the one before has ended, so two never interleave. At each turn
 * the runtime is asked for a young collection, and the bytes a file was read into are
 * reported to the bridge's collector (collector.ts: a full collection once enough came in),
 * since what the last file left is garbage.
 *
 * Once the bridge shuts down, an apply stops at its next turn — before it swapped any file,
 * so nothing is written — while the swaps, which take no turn, run to their end;
 * `close()` resolves when no apply runs.
 */
import { bounded } from "../bounded.ts";
import { shutdownError } from "./apply-errors.ts";

export class ApplyLane {
  private tail: Promise<void> = Promise.resolve();
  private closing = false;

  constructor(
    /** told the bytes of the files read (the bridge's memory collector) */
    private readonly took: (bytes: number) => void = () => {},
    /** a young collection of what one file left */
    private readonly collect: () => void = () => Bun.gc(false),
  ) {}

  /** `work` once every apply before it has ended; Cancelled once the bridge shuts down. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const before = this.tail;
    let ended = (): void => {};
    this.tail = new Promise<void>((resolve) => {
      ended = resolve;
    });
    try {
      await before;
      this.stopIfClosing();
      return await work();
    } finally {
      ended();
    }
  }

  /**
   * Between two files, the last one read into `bytes` of garbage: a collection, a turn of
   * the event loop; Cancelled when closing.
   */
  async between(bytes = 0): Promise<void> {
    if (bytes > 0) this.took(bytes);
    this.collect();
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.stopIfClosing();
  }

  /** The bridge shuts down: applies stop at their next turn; resolves once none runs. */
  async close(deadline: number): Promise<void> {
    this.closing = true;
    await bounded(this.tail, Math.max(0, deadline - Date.now()));
  }

  private stopIfClosing(): void {
    if (this.closing) throw shutdownError();
  }
}
