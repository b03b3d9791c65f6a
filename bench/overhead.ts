/**
 * Bridge overhead per read tool: the same request through the compiled bridge, through a
 * direct minimal LSP client (bench/pair.ts) and — on the generated workspaces, for the
 * tools it has — through cclsp (bench/peers.ts), on the same server binary and workspace
 * content, interleaved. Reported per tool: each client's p50/p95, and each bridge's
 * overhead as the p50/p95 of the paired differences (bridge − direct of the same round).
 * Setups: clangd and typescript-language-server on the small test fixtures (with
 * diagnostics), on generated 100- and 1,000-file workspaces (with cclsp), and on real
 * open-source code (bench/real-code.ts: rxjs, brotli's C library).
 */
import { join } from "node:path";
import type { ServerConfig } from "../src/config/types.ts";
import {
  copyFixture,
  findClangd,
  findTypescriptLanguageServer,
  materializeCFixture,
} from "../test/support/real-servers.ts";
import { type BenchOptions, count, makeTempDir, parseOptions, removeDir } from "./common.ts";
import { generateCWorkspace } from "./gen-c-fixture.ts";
import { generateTsWorkspace } from "./gen-ts-fixture.ts";
import {
  diagnosticsCases,
  documentSymbolsCase,
  positionCase,
  type Setup,
  workspaceSymbolsCase,
} from "./overhead-cases.ts";
import { type Case, type CaseResult, type Pair, runCases, startPair } from "./pair.ts";
import { type Peer, startPeer, waitPeerAnswers } from "./peers.ts";
import { cpuMs, pssMb, statusMb } from "./procfs.ts";
import { brotliSetup, rxjsSetup } from "./real-code.ts";
import { type Metric, metric, pairedDifferences, type Target } from "./stats.ts";

const GROUP = "overhead";

/** Targets (docs/PERFORMANCE.md): p50 ≤ 0.5 ms and p95 ≤ 2 ms per call; references p50 ≤ 2 ms */
function targetsFor(tool: string): Target[] {
  if (tool === "references") return [{ stat: "p50", max: 2 }];
  if (tool.startsWith("diagnostics")) return [];
  return [
    { stat: "p50", max: 0.5 },
    { stat: "p95", max: 2 },
  ];
}

/** "workspace_symbols \"x\"" → "workspace_symbols": the table's tool column */
export const toolOf = (name: string) => name.split(" ")[0] as string;

/** CPU ms per call of each bridge's processes, per case (from cpuMeter). */
export type CpuPerCall = Map<string, { theodolite: number; cclsp?: number }>;

/**
 * Meters the CPU time theodolite (bridge + supervisor) and cclsp (its node process) use
 * during each case's measured rounds: unlike wall-clock differences this hardly moves when
 * other work shares the cores, so it shows what each bridge costs even on a busy machine.
 */
export async function cpuMeter(pair: Pair, peer: Peer | undefined, iterations: number) {
  const status = await pair.bridge.callOk("session_status", {});
  const sessions = status.structured.sessions as { pids: { supervisor: number | null } }[];
  const supervisor = sessions[0]?.pids.supervisor ?? null;
  const theodolite = () =>
    (cpuMs(pair.bridge.pid) ?? 0) + (supervisor === null ? 0 : (cpuMs(supervisor) ?? 0));
  const cclsp = () => (peer === undefined ? 0 : (cpuMs(peer.client.pid) ?? 0));
  const perCall: CpuPerCall = new Map();
  let start = { theodolite: 0, cclsp: 0 };
  const onMeasured = (name: string, phase: "start" | "end") => {
    const now = { theodolite: theodolite(), cclsp: cclsp() };
    if (phase === "start") start = now;
    else {
      perCall.set(name, {
        theodolite: (now.theodolite - start.theodolite) / iterations,
        ...(peer === undefined ? {} : { cclsp: (now.cclsp - start.cclsp) / iterations }),
      });
    }
  };
  return { perCall, onMeasured };
}

function metricsOf(label: string, results: CaseResult[], cpu: CpuPerCall): Metric[] {
  const metrics: Metric[] = [];
  for (const r of results) {
    const tool = toolOf(r.name);
    const { bridge, direct, peer } = r.counts;
    const differ = (who: string, n: number | undefined) =>
      n !== undefined && n !== direct
        ? `item counts differ (${who} ${n}, direct ${direct})`
        : undefined;
    const cell = (side: NonNullable<Metric["overhead"]>["side"]) => ({ setup: label, tool, side });
    const used = cpu.get(r.name);
    if (used !== undefined) {
      metrics.push({
        ...metric(GROUP, `${label} ${r.name}: theodolite CPU per call`, "ms", [used.theodolite]),
        overhead: cell("theodolite-cpu"),
      });
      if (used.cclsp !== undefined) {
        metrics.push({
          ...metric(GROUP, `${label} ${r.name}: cclsp CPU per call`, "ms", [used.cclsp]),
          overhead: cell("cclsp-cpu"),
        });
      }
    }
    metrics.push(
      metric(GROUP, `${label} ${r.name}: bridge`, "ms", r.bridge),
      {
        ...metric(GROUP, `${label} ${r.name}: direct (${direct} items)`, "ms", r.direct),
        overhead: cell("direct"),
      },
      {
        ...metric(
          GROUP,
          `${label} ${r.name}: overhead (bridge − direct)`,
          "ms",
          pairedDifferences(r.bridge, r.direct),
          targetsFor(tool),
          differ("bridge", bridge),
        ),
        overhead: cell("theodolite"),
      },
    );
    if (r.peer !== undefined) {
      metrics.push({
        ...metric(
          GROUP,
          `${label} ${r.name}: cclsp overhead (cclsp − direct)`,
          "ms",
          pairedDifferences(r.peer, r.direct),
          [],
          differ("cclsp", peer),
        ),
        overhead: cell("cclsp"),
      });
    }
  }
  return metrics;
}

/** Before timing: cclsp's server must give the direct client's answers (it has no readiness). */
async function warmPeer(cases: readonly Case[]): Promise<void> {
  for (const c of cases) {
    if (c.peer === undefined) continue;
    const want = await c.direct();
    await waitPeerAnswers(c.peer, want, c.name);
  }
}

/** How long the bridge is left idle before its settled memory is read. */
const IDLE_MS = 2000;

/**
 * Resident and proportional memory of the bridge and of its session's supervisor: VmRSS
 * right after the run (target ≤ 60 MB, docs/PERFORMANCE.md) and the lowest over IDLE_MS of idleness (the
 * runtime returns freed pages in the background), PSS after that.
 */
async function memoryAfter(label: string, pair: Pair): Promise<Metric[]> {
  const out: Metric[] = [];
  const add = (what: string, mb: number | null, target?: number) => {
    if (mb === null) return;
    const targets = target === undefined ? [] : [{ stat: "p50" as const, max: target }];
    out.push(metric(GROUP, `${label}: ${what}`, "MB", [mb], targets));
  };
  const right = statusMb(pair.bridge.pid, "VmRSS");
  let idle = right;
  const until = performance.now() + IDLE_MS;
  while (performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = statusMb(pair.bridge.pid, "VmRSS");
    if (now !== null && (idle === null || now < idle)) idle = now;
  }
  add("bridge VmRSS right after the run", right, 60);
  add(`bridge VmRSS after ${IDLE_MS / 1000} s idle`, idle, 60);
  add("bridge PSS after the run", pssMb(pair.bridge.pid));
  const status = await pair.bridge.callOk("session_status", {});
  const sessions = status.structured.sessions as { pids: { supervisor: number | null } }[];
  const supervisor = sessions[0]?.pids.supervisor ?? null;
  if (supervisor !== null) {
    add("supervisor VmRSS after the run", statusMb(supervisor, "VmRSS"));
    add("supervisor PSS after the run", pssMb(supervisor));
  }
  return out;
}

/** The setup's workspace twice in `dir` (bridge/, direct/), and the pair started on them. */
export function startSetupPair(setup: Setup, dir: string): Promise<Pair> {
  const bridgeRoot = join(dir, "bridge");
  const directRoot = join(dir, "direct");
  setup.materialize(bridgeRoot);
  setup.materialize(directRoot);
  return startPair(setup.server, bridgeRoot, directRoot, dir, setup.requiredArgs);
}

async function measure(setup: Setup, opts: BenchOptions): Promise<Metric[]> {
  const dir = makeTempDir(`overhead-${setup.label.replace(/\W+/g, "-")}`);
  let pair: Pair | undefined;
  let peer: Peer | undefined;
  try {
    pair = await startSetupPair(setup, dir);
    if (setup.peerExtensions !== undefined) {
      const peerRoot = join(dir, "peer");
      setup.materialize(peerRoot);
      peer = await startPeer(
        setup.server,
        peerRoot,
        dir,
        setup.peerExtensions,
        setup.requiredArgs(peerRoot),
      );
    }
    const cases = setup.cases(pair, peer);
    await warmPeer(cases);
    const iterations = count(opts, 30, 8);
    const meter = await cpuMeter(pair, peer, iterations);
    // warm: 100 unmeasured rounds per case, so both runtimes' JITs have settled, as in a
    // long-lived bridge (fewer rounds measure start-up compilation: docs/PERFORMANCE.md)
    const results = await runCases(cases, iterations, count(opts, 100, 3), meter.onMeasured);
    return [
      ...metricsOf(setup.label, results, meter.perCall),
      ...(await memoryAfter(setup.label, pair)),
    ];
  } finally {
    await Promise.all([pair?.close(), peer?.close()]);
    removeDir(dir);
  }
}

const clangdArgs = (root: string) => [`--compile-commands-dir=${root}`];

function cSmall(server: ServerConfig): Setup {
  return {
    label: "clangd c",
    server,
    materialize: (root) => materializeCFixture(root),
    requiredArgs: clangdArgs,
    cases: (pair) => [
      positionCase(pair, "hover", { file: "util.c", line: 6, symbol: "absolute" }),
      positionCase(pair, "definition", { file: "main.c", line: 4, symbol: "point" }),
      positionCase(pair, "references", { file: "util.c", line: 5, symbol: "manhattan" }),
      documentSymbolsCase(pair, "util.c"),
      workspaceSymbolsCase(pair, "man"),
      ...diagnosticsCases(pair, "util.c"),
    ],
  };
}

function tsSmall(server: ServerConfig): Setup {
  return {
    label: "tls ts",
    server,
    materialize: (root) => copyFixture("ts", root),
    requiredArgs: () => [],
    cases: (pair) => [
      positionCase(pair, "hover", { file: "src/main.ts", line: 1, symbol: "totalArea" }),
      positionCase(pair, "definition", { file: "src/main.ts", line: 3, symbol: "Square" }),
      positionCase(pair, "references", { file: "src/shape.ts", line: 14, symbol: "totalArea" }),
      documentSymbolsCase(pair, "src/shape.ts"),
      workspaceSymbolsCase(pair, "Square"),
      ...diagnosticsCases(pair, "src/errors.ts"),
    ],
  };
}

/** The generated C workspace: module i's function, its call of the next, hub(). */
function cGenerated(server: ServerConfig, files: number): Setup {
  const i = Math.floor(files * 0.345);
  const fn = (k: number) => `fn_${String(k % files).padStart(4, "0")}`;
  const unit = `src/mod${i % 10}/${fn(i)}.c`;
  return {
    label: `clangd ${files} files`,
    server,
    materialize: (root) => generateCWorkspace(root, files),
    requiredArgs: clangdArgs,
    // no cclsp here: cclsp 0.7.0 frames LSP messages by string length, not bytes, so
    // clangd's hover (non-ASCII "→") never completes for it (docs/PERFORMANCE.md)
    cases: (pair) => [
      positionCase(pair, "hover", { file: unit, line: 6, symbol: fn(i + 1) }),
      positionCase(pair, "definition", { file: unit, line: 3, symbol: fn(i) }),
      positionCase(pair, "references", { file: "src/hub.c", line: 3, symbol: "hub" }),
      documentSymbolsCase(pair, unit),
      workspaceSymbolsCase(pair, "fn_01"),
    ],
  };
}

/** The generated TypeScript workspace (bench/gen-ts-fixture.ts): same shape as the C one. */
function tsGenerated(server: ServerConfig, files: number): Setup {
  const i = Math.floor(files * 0.345);
  const fn = (k: number) => `fn_${String(k % files).padStart(4, "0")}`;
  const file = `src/mod${i % 10}/${fn(i)}.ts`;
  // module i does not import hub() (i % 10 ≥ 3), so its lines are as listed in the generator
  if (i % 10 < 3) throw new Error(`module ${i} imports hub(): spots would shift`);
  return {
    label: `tls ${files} files`,
    server,
    materialize: (root) => generateTsWorkspace(root, files),
    requiredArgs: () => [],
    peerExtensions: ["ts"],
    cases: (pair, peer) => [
      positionCase(pair, "hover", { file, line: 20, symbol: fn(i + 1) }, peer),
      positionCase(pair, "definition", { file, line: 18, symbol: fn(i) }, peer),
      positionCase(pair, "references", { file: "src/hub.ts", line: 2, symbol: "hub" }, peer),
      documentSymbolsCase(pair, file),
      workspaceSymbolsCase(pair, "Widget_00", peer),
    ],
  };
}

function notMeasured(label: string, why: string): Metric {
  return metric(GROUP, `${label}: all tools`, "ms", null, [], `not measured: ${why}`);
}

/** A measured setup by label; `setup` undefined (or throwing): not measured, for `why`. */
export interface SetupEntry {
  label: string;
  setup: () => Setup | undefined;
  why: string;
}

/** Every overhead setup, narrowed by THEODOLITE_BENCH_ONLY (a label substring). */
export async function overheadSetups(): Promise<SetupEntry[]> {
  const clangd = (await findClangd())?.config;
  const tls = (await findTypescriptLanguageServer())?.config;
  const setups: SetupEntry[] = [
    { label: "clangd c", setup: () => clangd && cSmall(clangd), why: "clangd not found" },
    { label: "tls ts", setup: () => tls && tsSmall(tls), why: "tls not found (.ci/setup-servers)" },
    ...[100, 1000].flatMap((n) => [
      {
        label: `tls ${n} files`,
        setup: () => tls && tsGenerated(tls, n),
        why: "tls not found (.ci/setup-servers)",
      },
      {
        label: `clangd ${n} files`,
        setup: () => clangd && cGenerated(clangd, n),
        why: "clangd not found",
      },
    ]),
    // real open-source code (bench/real-code.ts): fetched once, then from the cache
    {
      label: "tls rxjs",
      setup: () => tls && rxjsSetup(tls),
      why: "tls not found (.ci/setup-servers)",
    },
    {
      label: "clangd brotli",
      setup: () => clangd && brotliSetup(clangd, clangdArgs),
      why: "clangd not found",
    },
  ];
  const only = process.env.THEODOLITE_BENCH_ONLY;
  return setups.filter((s) => only === undefined || s.label.includes(only));
}

export async function runOverhead(opts: BenchOptions): Promise<Metric[]> {
  const metrics: Metric[] = [];
  for (const s of await overheadSetups()) {
    let setup: Setup | undefined;
    try {
      setup = s.setup();
    } catch (err) {
      metrics.push(notMeasured(s.label, err instanceof Error ? err.message : String(err)));
      continue;
    }
    metrics.push(...(setup ? await measure(setup, opts) : [notMeasured(s.label, s.why)]));
  }
  return metrics;
}

if (import.meta.main) {
  const { printMetrics, overheadTable } = await import("./report.ts");
  const metrics = await runOverhead(parseOptions(process.argv));
  printMetrics(metrics);
  console.log(`\n${overheadTable(metrics)}`);
}
