/**
 * Two builds' overhead side by side (not in run.ts): on each overhead setup
 * (bench/overhead.ts), build A's bridge, build B's bridge and the direct client run at once,
 * each on its own copy of the workspace, and every call is interleaved — A, B, direct in an
 * order rotating from round to round — so all three meet the same machine state, call by
 * call. Per setup and tool: each build's overhead over the direct client (the p50 of its
 * paired differences), B − A of those, the p50 of the paired B − A differences, and each
 * build's CPU per call. THEODOLITE_BENCH_ONLY narrows the setups; `--strip k1,k2` leaves
 * server keys the older build does not know out of both builds' configs (its diagnostics
 * rows then use the default settle rule: compare the other rows).
 *
 *   bun bench/builds.ts --a /abs/old-binary --b /abs/new-binary [--iterations 200]
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir, removeDir, STRIP_KEYS_ENV } from "./common.ts";
import { overheadSetups } from "./overhead.ts";
import type { Setup } from "./overhead-cases.ts";
import { type Case, type Pair, runCases, startBridge, startPair } from "./pair.ts";
import { cpuMs } from "./procfs.ts";
import { pairedDifferences, percentile } from "./stats.ts";

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const WARMUP = 100;
const p50 = (xs: number[]) => (xs.length === 0 ? Number.NaN : percentile(xs, 50));
const fmt = (n: number) => (Number.isNaN(n) ? "—" : n.toFixed(3));
const signed = (n: number) => `${n >= 0 ? "+" : ""}${fmt(n)}`;

/** CPU ms used so far by a bridge and its session's supervisor. */
async function cpuOf(pair: Pair): Promise<() => number> {
  const status = await pair.bridge.callOk("session_status", {});
  const sessions = status.structured.sessions as { pids: { supervisor: number | null } }[];
  const supervisor = sessions[0]?.pids.supervisor ?? null;
  return () => (cpuMs(pair.bridge.pid) ?? 0) + (supervisor === null ? 0 : (cpuMs(supervisor) ?? 0));
}

/** B's cases as the `peer` side of A's: same question, same order, each on its own root. */
function interleaved(a: Case[], b: Case[]): Case[] {
  return a.map((ca, k) => {
    const cb = b[k] as Case;
    return {
      ...ca,
      prepare: (i: number) => {
        ca.prepare?.(i);
        cb.prepare?.(i);
      },
      peer: cb.bridge,
    };
  });
}

async function compare(setup: Setup, a: string, b: string, iterations: number): Promise<void> {
  const dir = makeTempDir(`builds-${setup.label.replace(/\W+/g, "-")}`);
  const roots = { a: join(dir, "a"), b: join(dir, "b"), direct: join(dir, "direct") };
  let pairA: Pair | undefined;
  let pairB: Pair | undefined;
  try {
    for (const root of Object.values(roots)) setup.materialize(root);
    pairA = await startPair(setup.server, roots.a, roots.direct, dir, setup.requiredArgs, [a]);
    const configB = join(dir, "config-b");
    mkdirSync(configB);
    const bridgeB = await startBridge(pairA.server, roots.b, configB, [b]);
    pairB = { ...pairA, bridge: bridgeB, bridgeRoot: roots.b, close: () => bridgeB.close() };
    const cases = interleaved(setup.cases(pairA), setup.cases(pairB));
    const cpu = { a: await cpuOf(pairA), b: await cpuOf(pairB) };
    const used = new Map<string, { a: number; b: number }>();
    let start = { a: 0, b: 0 };
    const results = await runCases(cases, iterations, WARMUP, (name, phase) => {
      const now = { a: cpu.a(), b: cpu.b() };
      if (phase === "start") start = now;
      else used.set(name, { a: (now.a - start.a) / iterations, b: (now.b - start.b) / iterations });
    });
    for (const r of results) {
      const overA = p50(pairedDifferences(r.bridge, r.direct));
      const overB = p50(pairedDifferences(r.peer ?? [], r.direct));
      const bMinusA = p50(pairedDifferences(r.peer ?? [], r.bridge));
      const c = used.get(r.name);
      console.log(
        [
          setup.label,
          r.name,
          fmt(p50(r.direct)),
          fmt(overA),
          fmt(overB),
          signed(overB - overA),
          signed(bMinusA),
          fmt(c?.a ?? Number.NaN),
          fmt(c?.b ?? Number.NaN),
          r.counts.bridge === r.counts.peer
            ? ""
            : `counts differ: A ${r.counts.bridge}, B ${r.counts.peer}`,
        ].join("\t"),
      );
    }
  } finally {
    await Promise.all([pairA?.close(), pairB?.close()]);
    removeDir(dir);
  }
}

async function main(): Promise<void> {
  const a = arg("a");
  const b = arg("b");
  if (a === undefined || b === undefined) throw new Error("usage: --a BINARY --b BINARY");
  const iterations = Number(arg("iterations") ?? 200);
  process.env[STRIP_KEYS_ENV] = arg("strip") ?? "";
  console.log(`A = ${a}\nB = ${b}\n${iterations} interleaved calls per row after ${WARMUP}\n`);
  console.log(
    "setup\ttool\tdirect p50 ms\tA overhead p50\tB overhead p50\tB − A\tp50 of paired B − A\tA CPU/call\tB CPU/call",
  );
  for (const entry of await overheadSetups()) {
    const setup = entry.setup();
    if (setup === undefined) console.log(`${entry.label}\tnot measured: ${entry.why}`);
    else await compare(setup, a, b, iterations);
  }
}

await main();
