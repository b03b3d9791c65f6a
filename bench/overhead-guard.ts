/**
 * The per-call overhead guard (docs/PERFORMANCE.md, "The overhead guard"), not in run.ts:
 *
 *   bun bench/overhead-guard.ts [--rounds N] [--attempts N] [--max-load L] [--record]
 *
 * On the overhead benchmark's generated workspaces — typescript-language-server on 1,000
 * files (hover, definition, document_symbols, workspace_symbols, and references of 601
 * sites) and clangd on 100 (the four small answers) — the bridge and the direct client
 * (bench/pair.ts) answer each question in interleaved rounds after 100 unmeasured ones. A
 * row passes when, in one of its attempts, both hold:
 * - wall clock: the p50 of the paired differences (bridge − direct, same round) is within
 *   its bound: 1.0 ms for a small answer, 2.0 ms for references — judged when the load
 *   average stayed within `--max-load` (default: the cores), where a bridge's work does not
 *   wait for a core behind other work (past it, the row says "not judged");
 * - CPU: the bridge's CPU time per call (bridge and supervisor, every thread's schedstat)
 *   is within the budget recorded in bench/overhead-budget.json (`--record` writes it: the
 *   least of three attempts' CPU per call × HEADROOM; it grows with the machine's load, so
 *   record at the load the guard runs at).
 * A row over either is measured again (fresh rounds, up to `--attempts`, default 3): a
 * regression is over in every attempt, a burst of other work on the machine seldom is.
 * Exit status: 0 every row passed, 1 a row did not, 2 a setup could not be measured.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { binary, makeTempDir, removeDir } from "./common.ts";
import { cpuMeter, overheadSetups, startSetupPair, toolOf } from "./overhead.ts";
import type { Setup } from "./overhead-cases.ts";
import { type Case, type CaseResult, type Pair, runCases } from "./pair.ts";
import { pairedDifferences, percentile } from "./stats.ts";

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

const ROUNDS = arg("rounds", 60);
const ATTEMPTS = arg("attempts", 3);
const RECORD = process.argv.includes("--record");
const MAX_LOAD = arg("max-load", cpus().length);
const WARMUP = 100;
/** unmeasured rounds before an attempt again (the JITs settled in the first) */
const REWARM = 20;
/** the budget over the CPU per call recorded: load on the machine moves it by this much */
const HEADROOM = 1.5;
const BUDGET_FILE = join(import.meta.dir, "overhead-budget.json");

const SMALL = ["hover", "definition", "document_symbols", "workspace_symbols"];
const GUARDED: { label: string; tools: string[] }[] = [
  { label: "tls 1000 files", tools: [...SMALL, "references"] },
  { label: "clangd 100 files", tools: SMALL },
];

/** The p50 bound of a row's overhead over the direct client, ms. */
const boundOf = (tool: string) => (tool === "references" ? 2.0 : 1.0);

interface Budget {
  /** when, at what load (1, 5, 15 minutes) and with which build the budget was recorded */
  recorded: { at: string; load_average: string; binary: string };
  headroom: number;
  /** "setup/tool" → CPU ms per call */
  cpu_ms_per_call: Record<string, number>;
}

interface Attempt {
  direct: number;
  overhead: number;
  cpu: number;
  /** the 1-minute load average, the higher of the attempt's start and end */
  load: number;
}

interface Row {
  setup: string;
  tool: string;
  attempts: Attempt[];
  passed: boolean;
}

const p50 = (xs: number[]) => percentile(xs, 50);
const key = (setup: string, tool: string) => `${setup}/${tool}`;

function readBudget(): Budget | undefined {
  try {
    return JSON.parse(readFileSync(BUDGET_FILE, "utf8")) as Budget;
  } catch {
    return undefined;
  }
}

/** Whether an attempt's wall clock is judged: the machine had a core for the bridge. */
const judged = (a: Attempt) => a.load <= MAX_LOAD;

function within(row: Row, a: Attempt, budget: Budget | undefined): boolean {
  const cpuBudget = budget?.cpu_ms_per_call[key(row.setup, row.tool)];
  const wall = !judged(a) || a.overhead <= boundOf(row.tool);
  return wall && (cpuBudget === undefined || a.cpu <= cpuBudget);
}

/** One attempt of `cases`: interleaved rounds, each case's p50s and CPU per call. */
async function attempt(pair: Pair, cases: Case[], warmup: number): Promise<Map<string, Attempt>> {
  const meter = await cpuMeter(pair, undefined, ROUNDS);
  const loads = new Map<string, number>();
  const results: CaseResult[] = await runCases(cases, ROUNDS, warmup, (name, phase) => {
    meter.onMeasured(name, phase);
    loads.set(name, Math.max(loads.get(name) ?? 0, loadavg()[0] ?? 0));
  });
  const out = new Map<string, Attempt>();
  for (const r of results) {
    out.set(r.name, {
      direct: p50(r.direct),
      overhead: p50(pairedDifferences(r.bridge, r.direct)),
      cpu: meter.perCall.get(r.name)?.theodolite ?? Number.NaN,
      load: loads.get(r.name) ?? Number.NaN,
    });
  }
  return out;
}

async function guard(setup: Setup, tools: string[], budget: Budget | undefined): Promise<Row[]> {
  const dir = makeTempDir(`guard-${setup.label.replace(/\W+/g, "-")}`);
  let pair: Pair | undefined;
  try {
    pair = await startSetupPair(setup, dir);
    const cases = setup.cases(pair).filter((c) => tools.includes(toolOf(c.name)));
    const rows = new Map<string, Row>(
      cases.map((c) => [
        c.name,
        { setup: setup.label, tool: toolOf(c.name), attempts: [], passed: false },
      ]),
    );
    let pending = cases;
    for (let n = 0; n < ATTEMPTS && pending.length > 0; n++) {
      const got = await attempt(pair, pending, n === 0 ? WARMUP : REWARM);
      for (const c of pending) {
        const row = rows.get(c.name) as Row;
        const a = got.get(c.name) as Attempt;
        row.attempts.push(a);
        row.passed = within(row, a, budget);
      }
      // recording takes every row's CPU from every attempt; a guard, the rows not passed yet
      pending = RECORD ? cases : pending.filter((c) => !rows.get(c.name)?.passed);
    }
    return [...rows.values()];
  } finally {
    await pair?.close();
    removeDir(dir);
  }
}

const fmt = (n: number) => (Number.isNaN(n) ? "—" : n.toFixed(2));
const signed = (n: number) => `${n >= 0 ? "+" : ""}${fmt(n)}`;

function report(rows: Row[], budget: Budget | undefined): void {
  console.log(
    "setup\ttool\tdirect p50 ms\toverhead p50 ms, each attempt (load)\tbound\tCPU/call ms, each attempt\tbudget\tverdict",
  );
  for (const r of rows) {
    const cpuBudget = budget?.cpu_ms_per_call[key(r.setup, r.tool)];
    console.log(
      [
        r.setup,
        r.tool,
        fmt(p50(r.attempts.map((a) => a.direct))),
        r.attempts
          .map((a) => `${signed(a.overhead)} (${fmt(a.load)}${judged(a) ? "" : ", not judged"})`)
          .join(", "),
        `≤ ${fmt(boundOf(r.tool))}`,
        r.attempts.map((a) => fmt(a.cpu)).join(", "),
        cpuBudget === undefined ? "none recorded" : `≤ ${fmt(cpuBudget)}`,
        r.passed ? "pass" : "FAIL",
      ].join("\t"),
    );
  }
}

function record(rows: Row[], loadAtStart: number[]): void {
  const budget: Budget = {
    recorded: {
      at: new Date().toISOString().slice(0, 10),
      load_average: loadAtStart.map((l) => l.toFixed(2)).join(" "),
      binary: Bun.spawnSync([binary(), "--version"]).stdout.toString().trim(),
    },
    headroom: HEADROOM,
    cpu_ms_per_call: Object.fromEntries(
      rows.map((r) => {
        const least = Math.min(...r.attempts.map((a) => a.cpu));
        return [key(r.setup, r.tool), Math.ceil(least * HEADROOM * 100) / 100];
      }),
    ),
  };
  writeFileSync(BUDGET_FILE, `${JSON.stringify(budget, null, 2)}\n`);
  console.log(`recorded: ${BUDGET_FILE}`);
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const loadAtStart = loadavg();
const budget = RECORD ? undefined : readBudget();
console.log(
  `overhead guard: ${ROUNDS} rounds per attempt, up to ${ATTEMPTS} attempts; wall clock judged at load ≤ ${MAX_LOAD}; load average ${load()}`,
);
if (!RECORD && budget === undefined)
  console.log(`no CPU budget in ${BUDGET_FILE}: wall clock only`);
binary(); // built once, before anything is timed
const rows: Row[] = [];
let unmeasured = false;
const entries = await overheadSetups();
for (const g of GUARDED) {
  const entry = entries.find((e) => e.label === g.label);
  const setup = entry?.setup();
  if (setup === undefined) {
    console.log(`${g.label}: not measured (${entry?.why ?? "no such setup"})`);
    unmeasured = true;
    continue;
  }
  rows.push(...(await guard(setup, g.tools, budget)));
}
report(rows, budget);
console.log(`load average at the end: ${load()}`);
if (RECORD) record(rows, loadAtStart);
process.exit(unmeasured ? 2 : rows.every((r) => r.passed) ? 0 : 1);
