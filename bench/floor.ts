/**
 * How much of theodolite's overhead is the runtime's, and how much its own work:
 * `bun bench/floor.ts [--quick]` runs the overhead benchmark (bench/overhead.ts) three
 * times — on theodolite, and on bench/floor-relay.ts (a relay that does nothing but pass
 * requests and answers through) compiled twice, with the bridge's JIT policy (build.ts)
 * and with JavaScriptCore's own — and prints each row's overhead side by side with
 * cclsp's, and each one's memory after the setup. Only setups the relay can serve (no
 * diagnostics rows): the generated workspaces unless THEODOLITE_BENCH_ONLY says otherwise.
 * The three runs are separate: each overhead is paired with its own run's direct client,
 * but the machine's noise differs between runs, so compare over repeated runs
 * (docs/PERFORMANCE.md, "The floor").
 */
import { join } from "node:path";
import { compileArgs, JIT_POLICY } from "../build.ts";
import {
  type BenchOptions,
  BINARY_ENV,
  binary,
  makeTempDir,
  parseOptions,
  removeDir,
} from "./common.ts";
import { runOverhead } from "./overhead.ts";
import type { Metric } from "./stats.ts";

interface Subject {
  label: string;
  binary: string;
}

function compileRelay(dir: string, jitPolicy: number): string {
  const outfile = join(dir, `floor-relay-${jitPolicy}`);
  const args = compileArgs({
    entry: join(import.meta.dir, "floor-relay.ts"),
    outfile,
    minify: true,
    jitPolicy,
    bytecodeOrder: false,
  });
  const r = Bun.spawnSync(args, { stdout: "pipe", stderr: "pipe" });
  if (!r.success) throw new Error(`compiling the relay failed: ${r.stderr.toString()}`);
  return outfile;
}

async function overheadOf(subject: Subject, opts: BenchOptions): Promise<Metric[]> {
  const before = process.env[BINARY_ENV];
  process.env[BINARY_ENV] = subject.binary;
  try {
    return await runOverhead(opts);
  } finally {
    if (before === undefined) delete process.env[BINARY_ENV];
    else process.env[BINARY_ENV] = before;
  }
}

type Cells = Map<string, Map<string, Metric>>;

/** setup⇥tool → "subject side" → metric; memory rows under tool "" */
function collect(cells: Cells, subject: string, metrics: readonly Metric[]): void {
  const put = (key: string, side: string, m: Metric) => {
    const row = cells.get(key) ?? new Map<string, Metric>();
    row.set(side, m);
    cells.set(key, row);
  };
  for (const m of metrics) {
    if (m.overhead !== undefined) {
      const key = `${m.overhead.setup}\t${m.overhead.tool}`;
      const side = m.overhead.side;
      if (side === "theodolite" || side === "theodolite-cpu") put(key, `${subject} ${side}`, m);
      else if (subject === "theodolite") put(key, side, m); // direct and cclsp: theodolite's run
    }
    const idle = /^(.*): bridge VmRSS after \d+ s idle$/.exec(m.name);
    if (idle?.[1] !== undefined) put(`${idle[1]}\t`, subject, m);
  }
}

function table(cells: Cells, subjects: readonly string[]): string {
  const ms = (m: Metric | undefined, stat: "p50" | "p95") => {
    const n = m?.summary?.[stat];
    return n === undefined ? "—" : `${n >= 0 ? "+" : ""}${n.toFixed(2)}`;
  };
  const pair = (m: Metric | undefined) => (m?.summary ? `${ms(m, "p50")} / ${ms(m, "p95")}` : "—");
  const lines = [
    `| setup | tool | direct p50 ms | ${subjects.map((s) => `${s} p50 / p95`).join(" | ")} | cclsp p50 / p95 | CPU/call ${subjects.join(", ")} |`,
    `|---|---|---:|${subjects.map(() => "---:|").join("")}---:|---:|`,
  ];
  const memory: string[] = [];
  for (const [key, row] of cells) {
    const [setup = "", tool = ""] = key.split("\t");
    if (tool === "") {
      const mb = subjects.map((s) => row.get(s)?.summary?.p50.toFixed(1) ?? "—");
      memory.push(`| ${setup} | ${mb.join(" | ")} |`);
      continue;
    }
    const cpu = subjects.map((s) => row.get(`${s} theodolite-cpu`)?.summary?.p50.toFixed(2) ?? "—");
    lines.push(
      `| ${setup} | ${tool} | ${row.get("direct")?.summary?.p50.toFixed(2) ?? "—"} | ${subjects
        .map((s) => pair(row.get(`${s} theodolite`)))
        .join(" | ")} | ${pair(row.get("cclsp"))} | ${cpu.join(", ")} |`,
    );
  }
  return [
    "Overhead over the direct client, ms:",
    "",
    ...lines,
    "",
    "VmRSS after 2 s idle, MB:",
    "",
    `| setup | ${subjects.join(" | ")} |`,
    `|---|${subjects.map(() => "---:|").join("")}`,
    ...memory,
  ].join("\n");
}

if (import.meta.main) {
  const opts = parseOptions(process.argv);
  process.env.THEODOLITE_BENCH_ONLY ??= "files";
  const dir = makeTempDir("floor");
  try {
    const subjects: Subject[] = [
      { label: "theodolite", binary: binary() },
      { label: "floor", binary: compileRelay(dir, JIT_POLICY) },
      { label: "floor, JIT", binary: compileRelay(dir, 1) },
    ];
    const cells: Cells = new Map();
    for (const s of subjects) collect(cells, s.label, await overheadOf(s, opts));
    process.stdout.write(
      `${table(
        cells,
        subjects.map((s) => s.label),
      )}\n`,
    );
  } finally {
    removeDir(dir);
  }
}
