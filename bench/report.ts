/**
 * The suite's output: the machine it ran on and one table of metrics, printed to the
 * console and written as markdown.
 */
import { readFileSync } from "node:fs";
import { cpus, loadavg, release, totalmem } from "node:os";
import { type Metric, targetVerdicts, verdictOf } from "./stats.ts";

export interface Machine {
  cpu: string;
  cores: number;
  memoryGb: number;
  kernel: string;
  bun: string;
  /** 1-minute load average when the run started: other work on the machine skews figures */
  load: number;
}

export function machine(): Machine {
  let cpu = cpus()[0]?.model ?? "unknown";
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
    if (m?.[1]) cpu = m[1].trim();
  } catch {
    // not Linux: keep os.cpus()
  }
  return {
    cpu,
    cores: cpus().length,
    memoryGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    kernel: release(),
    bun: Bun.version,
    load: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}

export function machineLine(m: Machine): string {
  return (
    `${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB RAM, Linux ${m.kernel}, bun ${m.bun}; ` +
    `load average ${m.load} at start`
  );
}

function fmt(n: number | undefined, unit: Metric["unit"]): string {
  if (n === undefined || Number.isNaN(n)) return "—";
  const digits = Math.abs(n) >= 100 ? 0 : Math.abs(n) >= 10 ? 1 : 2;
  return `${n.toFixed(digits)} ${unit}`;
}

function targetText(m: Metric): string {
  return m.targets.length === 0
    ? "—"
    : m.targets.map((t) => `${t.stat} ≤ ${t.max} ${m.unit}`).join("; ");
}

/** Verdict column: one word, or one per target when they disagree. */
function verdictText(m: Metric): string {
  const v = verdictOf(m);
  if (m.targets.length <= 1 || v === "pass") return v;
  return targetVerdicts(m).join("; ");
}

interface Row {
  metric: string;
  p50: string;
  p95: string;
  n: string;
  target: string;
  verdict: string;
}

function rows(metrics: readonly Metric[]): Row[] {
  return metrics.map((m) => ({
    metric: `${m.group}: ${m.name}`,
    p50: fmt(m.summary?.p50, m.unit),
    p95: fmt(m.summary?.p95, m.unit),
    n: m.summary ? String(m.summary.n) : "0",
    target: targetText(m),
    verdict: verdictText(m),
  }));
}

const HEADERS: Row = {
  metric: "metric",
  p50: "p50",
  p95: "p95",
  n: "n",
  target: "target",
  verdict: "verdict",
};
const COLUMNS = Object.keys(HEADERS) as (keyof Row)[];

export function consoleTable(metrics: readonly Metric[]): string {
  const all = [HEADERS, ...rows(metrics)];
  const width = (c: keyof Row) => Math.max(...all.map((r) => r[c].length));
  const line = (r: Row) =>
    COLUMNS.map((c) =>
      c === "p50" || c === "p95" || c === "n" ? r[c].padStart(width(c)) : r[c].padEnd(width(c)),
    )
      .join("  ")
      .trimEnd();
  const rule = COLUMNS.map((c) => "-".repeat(width(c))).join("  ");
  return [line(HEADERS), rule, ...all.slice(1).map(line)].join("\n");
}

export function notes(metrics: readonly Metric[]): string[] {
  return metrics
    .filter((m) => m.note !== undefined)
    .map((m) => `- ${m.group}: ${m.name} — ${m.note}`);
}

export function markdownReport(metrics: readonly Metric[], m: Machine, when: Date): string {
  const esc = (s: string) => s.replaceAll("|", "\\|");
  const table = [
    "| metric | p50 | p95 | n | target | verdict |",
    "|---|---:|---:|---:|---|---|",
    ...rows(metrics).map(
      (r) =>
        `| ${esc(r.metric)} | ${r.p50} | ${r.p95} | ${r.n} | ${esc(r.target)} | ${esc(r.verdict)} |`,
    ),
  ];
  const noteLines = notes(metrics);
  return [
    "# theodolite benchmark results",
    "",
    `Run ${when.toISOString()} on: ${machineLine(m)}.`,
    "",
    ...table,
    "",
    ...(noteLines.length > 0 ? ["Notes:", "", ...noteLines, ""] : []),
    "## Overhead over a direct LSP client",
    "",
    overheadTable(metrics, true),
    "",
  ].join("\n");
}

/** Print a standalone benchmark's metrics (each bench/*.ts can run alone). */
export function printMetrics(metrics: readonly Metric[]): void {
  console.log(`machine: ${machineLine(machine())}\n`);
  console.log(consoleTable(metrics));
  const noteLines = notes(metrics);
  if (noteLines.length > 0) console.log(`\n${noteLines.join("\n")}`);
}

/**
 * The overhead table of docs/PERFORMANCE.md: per setup and tool, the direct client's p50, then
 * theodolite's and cclsp's overhead over it (p50 / p95 of paired differences), and whether
 * theodolite meets its targets and is ahead of cclsp.
 */
export function overheadTable(metrics: readonly Metric[], markdown = false): string {
  type Side = NonNullable<Metric["overhead"]>["side"];
  const cells = new Map<string, Partial<Record<Side, Metric>>>();
  for (const m of metrics) {
    if (m.overhead === undefined) continue;
    const key = `${m.overhead.setup}\t${m.overhead.tool}`;
    cells.set(key, { ...cells.get(key), [m.overhead.side]: m });
  }
  const ms = (n: number | undefined) =>
    n === undefined || Number.isNaN(n) ? "—" : `${n >= 0 ? "+" : ""}${n.toFixed(2)}`;
  const pair = (m: Metric | undefined) =>
    m?.summary ? `${ms(m.summary.p50)} / ${ms(m.summary.p95)}` : "—";
  const header = [
    "setup",
    "tool",
    "direct p50 ms",
    "theodolite overhead p50 / p95 ms",
    "cclsp overhead p50 / p95 ms",
    "CPU/call theodolite, cclsp ms",
    "verdict",
  ];
  const rows = [...cells].map(([key, c]) => {
    const [setup = "", tool = ""] = key.split("\t");
    const t = c.theodolite;
    const verdicts: string[] = [];
    if (t !== undefined && t.targets.length > 0) verdicts.push(`targets: ${verdictOf(t)}`);
    const tp = t?.summary?.p50;
    const cp = c.cclsp?.summary?.p50;
    if (tp !== undefined && cp !== undefined) {
      verdicts.push(tp < cp ? "ahead of cclsp" : "NOT ahead of cclsp");
    }
    const direct = c.direct?.summary?.p50;
    const cpu = (m: Metric | undefined) => m?.summary?.p50.toFixed(2) ?? "—";
    return [
      setup,
      tool,
      direct === undefined ? "—" : direct.toFixed(2),
      pair(t),
      pair(c.cclsp),
      `${cpu(c["theodolite-cpu"])}, ${cpu(c["cclsp-cpu"])}`,
      verdicts.join(", ") || "info",
    ];
  });
  if (markdown) {
    return [
      `| ${header.join(" | ")} |`,
      "|---|---|---:|---:|---:|---:|---|",
      ...rows.map((r) => `| ${r.join(" | ")} |`),
    ].join("\n");
  }
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) =>
    r
      .map((v, i) => v.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}
