/**
 * Two builds' overhead side by side (not in run.ts): bench/overhead.ts run on build A, then
 * B, then A… for `--rounds` rounds in one process, so both see the same machine; each
 * setup starts afresh every round. Per setup and tool: each build's overhead over the
 * direct client (the median of its rounds' p50s and their range), its CPU per call, and
 * B − A. THEODOLITE_BENCH_ONLY narrows the setups as for overhead.ts; `--strip k1,k2`
 * leaves server keys the older build does not know out of both builds' configs (its
 * diagnostics rows then use the default settle rule: compare the other rows).
 *
 *   bun bench/builds.ts --a /abs/old-binary --b /abs/new-binary [--rounds 3] [--quick]
 */
import { BINARY_ENV, parseOptions, STRIP_KEYS_ENV } from "./common.ts";
import { runOverhead } from "./overhead.ts";
import { percentile } from "./stats.ts";

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

type Figures = Map<string, { overhead: number[]; cpu: number[] }>;

async function measure(binaryPath: string, into: Figures): Promise<void> {
  process.env[BINARY_ENV] = binaryPath;
  for (const m of await runOverhead(parseOptions(process.argv))) {
    const cell = m.overhead;
    if (cell === undefined || m.summary === null) continue;
    const key = `${cell.setup}\t${cell.tool}`;
    const f = into.get(key) ?? { overhead: [], cpu: [] };
    if (cell.side === "theodolite") f.overhead.push(m.summary.p50);
    if (cell.side === "theodolite-cpu") f.cpu.push(m.summary.p50);
    into.set(key, f);
  }
}

const median = (xs: number[]) => (xs.length === 0 ? Number.NaN : percentile(xs, 50));
const fmt = (n: number) => (Number.isNaN(n) ? "—" : n.toFixed(3));
const range = (xs: number[]) =>
  xs.length === 0 ? "—" : `${fmt(Math.min(...xs))}…${fmt(Math.max(...xs))}`;

async function main(): Promise<void> {
  const a = arg("a");
  const b = arg("b");
  if (a === undefined || b === undefined) throw new Error("usage: --a BINARY --b BINARY");
  const rounds = Number(arg("rounds") ?? 3);
  process.env[STRIP_KEYS_ENV] = arg("strip") ?? "";
  const figures = { a: new Map() as Figures, b: new Map() as Figures };
  for (let r = 0; r < rounds; r++) {
    // alternate which build goes first, so neither always meets the other's after-effects
    const order: ("a" | "b")[] = r % 2 === 0 ? ["a", "b"] : ["b", "a"];
    for (const side of order) {
      console.log(`round ${r + 1}/${rounds}: build ${side.toUpperCase()}`);
      await measure(side === "a" ? a : b, figures[side]);
    }
  }
  console.log(`\nA = ${a}\nB = ${b}\n`);
  console.log(
    "setup\ttool\tA overhead p50 ms (range)\tB overhead p50 ms (range)\tB − A ms\tA CPU/call\tB CPU/call",
  );
  for (const [key, fa] of figures.a) {
    const fb = figures.b.get(key) ?? { overhead: [], cpu: [] };
    const delta = median(fb.overhead) - median(fa.overhead);
    console.log(
      [
        key,
        `${fmt(median(fa.overhead))} (${range(fa.overhead)})`,
        `${fmt(median(fb.overhead))} (${range(fb.overhead)})`,
        `${delta >= 0 ? "+" : ""}${fmt(delta)}`,
        fmt(median(fa.cpu)),
        fmt(median(fb.cpu)),
      ].join("\t"),
    );
  }
}

await main();
