/**
 * Long work in slices (SPEC §8.2): a loop over what a server may make large — the
 * diagnostics of one answer — gives the event loop a turn whenever a slice of SLICE_MS is
 * spent, so a `ping` or another call is read and answered meanwhile. At each turn the
 * runtime is asked for a collection (not a full one): what the slice left is garbage, and
 * the runtime's own schedule lets a large heap grow by about its size first
 * (docs/PERFORMANCE.md, "Hostile input"). One object per piece of work.
 */

/** The longest the loop runs without a turn of the event loop. */
export const SLICE_MS = 40;
/** Steps between two looks at the clock. */
const CHECK_EVERY = 16;
/** Lists this short are sorted at once (the runtime's sort: milliseconds at most). */
const SORT_AT_ONCE = 2048;

export interface TimeSliceOptions {
  /** at each turn: collect what the slice left (a young, concurrent collection) */
  collect: () => void;
  /**
   * the turn itself: an immediate, or a workspace's chained turns (workspace/turns.ts),
   * so that many loops at once take one slice per turn of the event loop, not all theirs
   */
  turn: () => Promise<void>;
}

const defaults: TimeSliceOptions = {
  collect: () => Bun.gc(false),
  turn: () => new Promise<void>((resolve) => setImmediate(resolve)),
};

export class TimeSlices {
  private readonly opts: TimeSliceOptions;
  private started = performance.now();
  private steps = 0;
  /** turns taken so far (tests) */
  turns = 0;

  constructor(opts: Partial<TimeSliceOptions> = {}) {
    this.opts = { ...defaults, ...opts };
  }

  /** Whether the slice is spent: a turn is due. */
  due(): boolean {
    this.steps += 1;
    return this.steps % CHECK_EVERY === 0 && performance.now() - this.started >= SLICE_MS;
  }

  /** A collection and a turn of the event loop; the next slice starts after it. */
  async turn(): Promise<void> {
    this.turns += 1;
    this.opts.collect();
    await this.opts.turn();
    this.started = performance.now();
  }

  /** `step` for each index below `count`, in order, with a turn whenever one is due. */
  async each(count: number, step: (i: number) => void): Promise<void> {
    for (let i = 0; i < count; i++) {
      step(i);
      if (this.due()) await this.turn();
    }
  }

  /**
   * `items` sorted by `compare` into a new array — stable, as Array.prototype.sort — with
   * turns between comparisons: a bottom-up merge sort, unless the list is short.
   */
  async sort<T>(items: readonly T[], compare: (a: T, b: T) => number): Promise<T[]> {
    const n = items.length;
    if (n <= SORT_AT_ONCE) return items.slice().sort(compare);
    let from = items.slice();
    let to = new Array<T>(n);
    for (let width = 1; width < n; width *= 2) {
      for (let lo = 0; lo < n; lo += 2 * width) {
        const mid = Math.min(lo + width, n);
        const hi = Math.min(lo + 2 * width, n);
        let i = lo;
        let j = mid;
        let k = lo;
        while (i < mid && j < hi) {
          // the right one goes first only when it is strictly smaller: stable
          const right = from[j] as T;
          const left = from[i] as T;
          if (compare(right, left) < 0) {
            to[k++] = right;
            j += 1;
          } else {
            to[k++] = left;
            i += 1;
          }
          if (this.due()) await this.turn();
        }
        while (i < mid) to[k++] = from[i++] as T;
        while (j < hi) to[k++] = from[j++] as T;
      }
      [from, to] = [to, from];
    }
    return from;
  }
}
