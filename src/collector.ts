/**
 * When the bridge asks the runtime for a full garbage collection (SPEC §9.3; the figures
 * are in docs/PERFORMANCE.md, memory). The bridge keeps no server answer or file read past
 * its call, so what a call parsed is garbage once it is answered; these moments free it
 * sooner than the runtime's own schedule would, between reads (only the last can fall in a call):
 * - right after an answer, when the process took in more than `largeBytes` since the
 *   answer before it (server messages, workspace files, what a diagnostics answer
 *   serialized to measure itself): a very large answer is freed before the next call,
 *   instead of the process holding several;
 * - once the bridge has been idle for `idleMs` after answering anything: what ordinary
 *   calls left behind is given back while the agent thinks;
 * - while an over-limit client message is being skipped (SPEC §4.8), each time
 *   `droppedBytes` more of it were let go (the chunks they came in wait for a collection);
 * - once `floodBytes` came in since the last collection, answered or not: a flood of large
 *   notifications leaves garbage faster than the runtime's own schedule collects it.
 * Ordinary calls in a burst never trigger one (young-generation collections do).
 */

/** Twenty times an ordinary large answer (a reference list of hundreds of locations). */
export const LARGE_BYTES = 2 * 1024 * 1024;
/** As large as the per-message limit (SPEC §4.8): a skipped 50 MB message collects six times. */
export const DROPPED_BYTES = 8 * 1024 * 1024;
/** As large as a server message may be (`bridge.max_server_message_bytes`' default). */
export const FLOOD_BYTES = 32 * 1024 * 1024;
/** Longer than the gap between an agent's calls in a burst, far shorter than its thinking. */
export const IDLE_MS = 1000;

export interface CollectorOptions {
  largeBytes: number;
  droppedBytes: number;
  floodBytes: number;
  idleMs: number;
  collect: () => void;
  /** run `fn` once the current work is done */
  later: (fn: () => void) => void;
  /** run `fn` after `ms`, without keeping the process alive */
  timer: (fn: () => void, ms: number) => void;
  /** a monotonic clock in ms */
  now: () => number;
}

const defaults: CollectorOptions = {
  largeBytes: LARGE_BYTES,
  droppedBytes: DROPPED_BYTES,
  floodBytes: FLOOD_BYTES,
  idleMs: IDLE_MS,
  collect: () => Bun.gc(true),
  later: (fn) => void setImmediate(fn),
  timer: (fn, ms) => void setTimeout(fn, ms).unref(),
  now: () => performance.now(),
};

export class Collector {
  private readonly opts: CollectorOptions;
  /** bytes taken in since the last answer */
  private taken = 0;
  /** bytes taken in since the last collection */
  private takenSince = 0;
  /** bytes let go unparsed since the last collection for them */
  private droppedSince = 0;
  private pending = false;
  /** when the last answer was written */
  private lastAnswer = 0;
  /** an answer was written since the last collection */
  private dirty = false;
  private idleCheck = false;
  /** whether requests are still waiting for an answer (the transport's, once connected) */
  private busy: () => boolean = () => false;
  /** full collections run so far (tests and benchmarks) */
  collections = 0;

  constructor(opts: Partial<CollectorOptions> = {}) {
    this.opts = { ...defaults, ...opts };
  }

  /** What tells the collector that requests are still pending (the MCP transport). */
  watchRequests(busy: () => boolean): void {
    this.busy = busy;
  }

  /** `bytes` were read into the process (a chunk of a server's output, a file). */
  took(bytes: number): void {
    this.taken += bytes;
    this.takenSince += bytes;
    if (this.takenSince >= this.opts.floodBytes) this.collectSoon();
  }

  /**
   * `bytes` read were let go unparsed (an over-limit message being skipped): they are
   * garbage already, and more may follow before any answer, so this collects at once,
   * between two reads.
   */
  dropped(bytes: number): void {
    this.droppedSince += bytes;
    if (this.droppedSince < this.opts.droppedBytes) return;
    this.droppedSince = 0;
    this.opts.collect();
    this.collections += 1;
  }

  /** An answer was written: collect once the current work is done if it followed large input. */
  afterAnswer(): void {
    const large = this.taken > this.opts.largeBytes;
    this.taken = 0;
    this.lastAnswer = this.opts.now();
    this.dirty = true;
    if (large) this.collectSoon();
    if (!this.idleCheck) {
      this.idleCheck = true;
      this.opts.timer(() => this.checkIdle(), this.opts.idleMs);
    }
  }

  private checkIdle(): void {
    const quiet = this.opts.now() - this.lastAnswer;
    // a request in flight (a long diagnostics wait) is not idleness: look again later
    const wait = this.busy() ? this.opts.idleMs : this.opts.idleMs - quiet;
    if (wait > 0) {
      this.opts.timer(() => this.checkIdle(), wait);
      return;
    }
    this.idleCheck = false;
    if (this.dirty) this.collectSoon();
  }

  private collectSoon(): void {
    if (this.pending) return;
    this.pending = true;
    this.opts.later(() => {
      this.pending = false;
      this.dirty = false;
      this.takenSince = 0;
      this.opts.collect();
      this.collections += 1;
    });
  }
}
