/**
 * When the bridge asks the runtime for a full garbage collection (docs/PERFORMANCE.md,
 * memory): right after an answer was written, when the process took in more than
 * `largeBytes` since the answer before it — server messages read, workspace files read. The
 * bridge keeps no server answer or file read past its call, so what such a call parsed is
 * garbage once it is answered: a very large answer (every symbol of a 10 MB file is 4.5 MB
 * of JSON, parsed into ~100,000 objects) or file (the text, its bytes and its didOpen) is
 * freed before the next call rather than whenever the runtime's own schedule gets to it —
 * meanwhile the process would hold several.
 *
 * Ordinary calls never trigger it: their garbage is what the runtime's own young-generation
 * collections are for, and a full collection costs 10–30 ms of the event loop. (An earlier
 * trigger — resident memory grown by 16 MB — fired every few dozen reference lists of
 * 100 KB and read the resident size after every answer: 5–13 % of the bridge's CPU.)
 * Counting costs an addition per chunk read.
 */

/** Ten times the largest ordinary answer measured (a reference list of 601 locations is ~100 KB). */
export const LARGE_BYTES = 2 * 1024 * 1024;

export class Collector {
  /** bytes taken in since the last answer */
  private taken = 0;
  private pending = false;
  /** full collections run so far (tests and benchmarks) */
  collections = 0;

  constructor(
    private readonly largeBytes = LARGE_BYTES,
    private readonly collect: () => void = () => Bun.gc(true),
    private readonly later: (fn: () => void) => void = (fn) => void setImmediate(fn),
  ) {}

  /** `bytes` were read into the process (a chunk of a server's output, a file). */
  took(bytes: number): void {
    this.taken += bytes;
  }

  /** An answer was written: collect once the current work is done, if it followed large input. */
  afterAnswer(): void {
    const large = this.taken > this.largeBytes;
    this.taken = 0;
    if (!large || this.pending) return;
    this.pending = true;
    this.later(() => {
      this.pending = false;
      this.collect();
      this.collections += 1;
    });
  }
}

/** The process's collector (the transport reports each answer written). */
export const collector = new Collector();
