/**
 * A small seeded pseudo-random generator (mulberry32) for reproducible fuzzing: the same
 * seed gives the same sequence on every machine.
 */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A seed derived from a base seed and labels, so independent streams stay reproducible. */
  static derive(seed: number, ...labels: (string | number)[]): number {
    let h = seed >>> 0 || 0x9e3779b9;
    for (const ch of labels.join("\u0000")) {
      h = Math.imul(h ^ (ch.codePointAt(0) ?? 0), 0x01000193) >>> 0;
    }
    return h;
  }

  /** uniform in [0, 1) */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** integer in [lo, hi] */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
}
