/**
 * The whole performance suite: `bun bench/run.ts [--quick]`. Runs every benchmark in
 * turn, prints the machine and one table (metric, p50, p95, n, target, verdict), and
 * writes the same as markdown to bench/out/latest.md. A benchmark that crashes is listed
 * as "not measured" with its error, the others still run, and the exit code is 1.
 * FAIL verdicts do not change the exit code: this is a measurement, not a test.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCoherence } from "./coherence.ts";
import { type BenchOptions, binary, parseOptions } from "./common.ts";
import { runDiagnosticsFiles } from "./diagnostics-files.ts";
import { runInitialize } from "./initialize.ts";
import { runNormalize } from "./normalize.ts";
import { runOverhead } from "./overhead.ts";
import { runPaging } from "./paging.ts";
import { runReadiness } from "./readiness.ts";
import { runReap } from "./reap.ts";
import {
  consoleTable,
  machine,
  machineLine,
  markdownReport,
  notes,
  overheadTable,
} from "./report.ts";
import { runRss } from "./rss.ts";
import { type Metric, metric } from "./stats.ts";
import { runVersion } from "./version.ts";

const BENCHMARKS: { group: string; run: (opts: BenchOptions) => Promise<Metric[]> }[] = [
  { group: "version", run: runVersion },
  { group: "initialize", run: runInitialize },
  { group: "reap", run: runReap },
  { group: "rss", run: runRss },
  { group: "readiness", run: runReadiness },
  { group: "normalize", run: runNormalize },
  { group: "coherence", run: runCoherence },
  { group: "overhead", run: runOverhead },
  { group: "diagnostics-files", run: runDiagnosticsFiles },
  { group: "paging", run: runPaging },
];

const opts = parseOptions(process.argv);
const startedAt = new Date();
const m = machine();
console.log(`theodolite benchmarks${opts.quick ? " (--quick)" : ""} on ${machineLine(m)}`);
binary(); // build once up front, so no benchmark times a rebuild

const metrics: Metric[] = [];
let crashed = false;
for (const b of BENCHMARKS) {
  const t0 = performance.now();
  process.stdout.write(`  ${b.group}… `);
  try {
    metrics.push(...(await b.run(opts)));
    console.log(`${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } catch (err) {
    crashed = true;
    console.log("crashed");
    console.error(err);
    metrics.push(
      metric(b.group, "(benchmark crashed)", "ms", null, [], `not measured: ${String(err)}`),
    );
  }
}

console.log(`\n${consoleTable(metrics)}\n`);
console.log(`${overheadTable(metrics)}\n`);
const noteLines = notes(metrics);
if (noteLines.length > 0) console.log(`${noteLines.join("\n")}\n`);
const outDir = join(import.meta.dir, "out");
mkdirSync(outDir, { recursive: true });
const outFile = join(outDir, "latest.md");
writeFileSync(outFile, markdownReport(metrics, m, startedAt));
const total = ((Date.now() - startedAt.getTime()) / 1000).toFixed(0);
console.log(`machine: ${machineLine(m)}\nwritten: ${outFile} (${total} s)`);
process.exit(crashed ? 1 : 0);
