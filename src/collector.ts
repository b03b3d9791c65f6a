/**
 * When the bridge asks the runtime for a full garbage collection (docs/PERFORMANCE.md,
 * memory): right after an answer was written, when the process's resident memory has
 * grown by more than `growthBytes` since the last such collection (before the first one:
 * since the first answer, the handshake — what loading took is not garbage, and collecting
 * for it stalled whatever message came next by ~10 ms in every bridge). The bridge keeps no
 * server answer or file read past its call, so what accumulated then is mostly garbage: a
 * very large answer (every symbol of a 10 MB file is 4.5 MB of JSON, parsed into ~100,000
 * objects) or file (the text, its bytes and its didOpen) is freed before the next call
 * rather than whenever the collector's own schedule gets to it — meanwhile the process
 * would hold several. Ordinary calls do not trigger it (their garbage is reused in place:
 * resident memory stays flat), and it runs after the answer, off the call's path; the
 * look costs one read of the resident size (~3 µs).
 */

/** Above the resident growth of ordinary work between the runtime's own collections. */
export const GROWTH_BYTES = 16 * 1024 * 1024;

export class Collector {
  /** resident size after the last collection; unset until the first answer */
  private base: number | undefined;
  private pending = false;
  /** full collections run so far (tests and benchmarks) */
  collections = 0;

  constructor(
    private readonly growthBytes = GROWTH_BYTES,
    private readonly resident: () => number = () => process.memoryUsage.rss(),
    private readonly collect: () => void = () => Bun.gc(true),
    private readonly later: (fn: () => void) => void = (fn) => void setImmediate(fn),
  ) {}

  /** An answer was written: collect once the current work is done, if memory grew past the limit. */
  afterAnswer(): void {
    if (this.pending) return;
    const now = this.resident();
    if (this.base === undefined) this.base = now;
    if (now - this.base <= this.growthBytes) return;
    this.pending = true;
    this.later(() => {
      this.pending = false;
      this.collect();
      this.collections += 1;
      this.base = this.resident();
    });
  }
}

/** The process's collector (the transport reports each answer written). */
export const collector = new Collector();
