/**
 * `theodolite --version` wall time (SPEC §2): spawn to exit, the cost a gate pays to
 * identify the binary. Target ≤ 15 ms (median).
 */
import { type BenchOptions, binary, count, parseOptions } from "./common.ts";
import { type Metric, metric } from "./stats.ts";

const GROUP = "version";

export async function runVersion(opts: BenchOptions): Promise<Metric[]> {
  const bin = binary();
  const runs = count(opts, 40, 10);
  const samples: number[] = [];
  // Two unmeasured runs: the first spawn of a 110 MB binary pays for the page cache.
  for (let i = 0; i < runs + 2; i++) {
    const start = performance.now();
    const proc = Bun.spawn([bin, "--version"], { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    const ms = performance.now() - start;
    if (code !== 0 || !out.startsWith("theodolite ")) {
      throw new Error(`--version failed (exit ${code}): ${out}`);
    }
    if (i >= 2) samples.push(ms);
  }
  return [metric(GROUP, "--version wall time", "ms", samples, [{ stat: "p50", max: 15 }])];
}

if (import.meta.main) {
  const { printMetrics } = await import("./report.ts");
  printMetrics(await runVersion(parseOptions(process.argv)));
}
