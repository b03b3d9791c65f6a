/**
 * Sample statistics and metric verdicts for the performance suite. Percentiles use linear
 * interpolation between closest ranks (numpy's default), so p50 of an even-sized sample is
 * the mean of the two middle values.
 */

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  min: number;
  max: number;
}

/** The p-th percentile (0..100) of `samples` (any order). NaN for an empty sample. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (rank - lo);
}

export function summarize(samples: readonly number[]): Summary {
  return {
    n: samples.length,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    min: samples.length === 0 ? Number.NaN : Math.min(...samples),
    max: samples.length === 0 ? Number.NaN : Math.max(...samples),
  };
}

/** A target is an upper bound on one statistic of the metric. */
export interface Target {
  stat: "p50" | "p95";
  max: number;
}

export type Verdict = "pass" | "FAIL" | "info" | "not measured";

export interface Metric {
  /** group the metric belongs to (one benchmark script) */
  group: string;
  name: string;
  /** "×": a ratio of two timings */
  unit: "ms" | "MB" | "×";
  summary: Summary | null;
  targets: Target[];
  /** why there is no measurement, or what to keep in mind when reading it */
  note?: string;
  /** for the overhead benchmark: which row and column of the overhead table this is */
  overhead?: OverheadCell;
}

/** A cell of the overhead table: one client's figure for one tool on one setup. */
export interface OverheadCell {
  setup: string;
  tool: string;
  /**
   * direct: the client's time; theodolite and cclsp: the paired overhead over direct;
   * *-cpu: CPU time the bridge's processes used per call
   */
  side: "direct" | "theodolite" | "cclsp" | "theodolite-cpu" | "cclsp-cpu";
}

/** pass when every target holds, FAIL when one does not, info without targets. */
export function verdictOf(m: Metric): Verdict {
  if (m.summary === null || m.summary.n === 0) return "not measured";
  if (m.targets.length === 0) return "info";
  const summary = m.summary;
  return m.targets.every((t) => summary[t.stat] <= t.max) ? "pass" : "FAIL";
}

/** One verdict per target, e.g. "p95 ≤ 100 ms (docs/PERFORMANCE.md): pass". */
export function targetVerdicts(m: Metric): string[] {
  const s = m.summary;
  return m.targets.map((t) => {
    const holds = s !== null && s.n > 0 && s[t.stat] <= t.max;
    const v = s === null || s.n === 0 ? "not measured" : holds ? "pass" : "FAIL";
    return `${t.stat} ≤ ${t.max} ${m.unit}: ${v}`;
  });
}

export function metric(
  group: string,
  name: string,
  unit: Metric["unit"],
  samples: readonly number[] | null,
  targets: Target[] = [],
  note?: string,
): Metric {
  const m: Metric = {
    group,
    name,
    unit,
    summary: samples === null ? null : summarize(samples),
    targets,
  };
  if (note !== undefined) m.note = note;
  return m;
}

/** Paired differences a[i] - b[i] (interleaved runs: both sides saw the same machine noise). */
export function pairedDifferences(a: readonly number[], b: readonly number[]): number[] {
  const n = Math.min(a.length, b.length);
  return Array.from({ length: n }, (_, i) => (a[i] as number) - (b[i] as number));
}
