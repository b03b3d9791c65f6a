/**
 * Eight clients on one shared bridge (SPEC §2.2), `definition` per call: one client alone
 * against eight at once on the same warm bridge, two ways —
 * - closed loop: each client calls again as soon as it has its answer (eight requests
 *   always waiting: the worst case);
 * - with think time: each client waits an exponential time (mean 150 ms, seeded) after
 *   each answer before its next call, as an agent does between tool calls —
 * on two servers: typescript-language-server on a generated 100-file project (the call
 * sites of 16 modules, all opened by the warm-up, so no phase opens or closes documents),
 * beside eight dedicated `--isolated` bridges at once; and the fake server answering
 * every call after a fixed time, side by side, which makes no call wait for another: what
 * remains is what eight clients cost the bridge itself. Each phase prints the CPU time
 * per call of the bridge (the daemon), the relays (the clients' `theodolite` processes)
 * and the servers (everything under the bridge), from schedstat, and the load average:
 * where the time goes, on a machine other work shares. Then the trees' memory (sum of
 * proportional set sizes), one shared bridge against eight dedicated ones.
 *
 *   bun bench/shared-clients.ts [--quick] [fake|tls]
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerConfig } from "../src/config/types.ts";
import { writeConfig } from "../test/support/bridge.ts";
import { Prng } from "../test/support/prng.ts";
import { treeOf } from "../test/support/processes.ts";
import { realConfig } from "../test/support/real-bridge.ts";
import { findTypescriptLanguageServer } from "../test/support/real-servers.ts";
import { type LineClient, SharedWorld } from "../test/support/shared-bridge.ts";
import {
  binary,
  count,
  fakeServer,
  makeTempDir,
  parseOptions,
  removeDir,
  writeBridgeConfig,
} from "./common.ts";
import { generateTsWorkspace } from "./gen-ts-fixture.ts";
import { cpuMs, pssMb } from "./procfs.ts";
import { summarize } from "./stats.ts";

const FILES = 100;
const SITES = 16;
const CLIENTS = 8;
const THINK_MEAN_MS = 150;
const QUIET_WINDOW_MS = 500;
const QUIET_CPU_MS = 10;
/** the fake server's answer time: as long as a warm server's, but answered in parallel */
const FAKE_DELAY_MS = 10;
const opts = parseOptions(process.argv.slice(2));
const calls = count(opts, 30, 6);

interface Setup {
  label: string;
  config: string;
  /** the definition's arguments at site k, and text its correct answer contains */
  site(k: number): { args: Record<string, unknown>; expect: string };
  /** eight dedicated bridges too */
  dedicated: boolean;
  dir: string;
}

/** typescript-language-server on the generated project: the call sites of 16 modules. */
function tlsSetup(server: ServerConfig): Setup {
  const dir = makeTempDir("shared-clients");
  const ws = generateTsWorkspace(dir, FILES);
  const sites = Array.from({ length: SITES }, (_, i) => {
    const file = ws.modulePath(i);
    const next = `fn_${String(i + 1).padStart(4, "0")}`;
    const lines = readFileSync(join(dir, file), "utf8").split("\n");
    const line = lines.findIndex((l) => l.includes(`return ${next}(`)) + 1;
    return { args: { file, line, symbol: next }, expect: ws.modulePath(i + 1) };
  });
  return {
    label: "typescript-language-server, 100 generated files",
    config: writeConfig(realConfig(dir, server), dir),
    site: (k) => sites[k % SITES] as { args: Record<string, unknown>; expect: string },
    dedicated: true,
    dir,
  };
}

/**
 * The fake server answering every definition after FAKE_DELAY_MS, requests side by side:
 * what eight clients cost the bridge itself, with a server that never makes one wait.
 */
function fakeSetup(): Setup {
  const dir = makeTempDir("shared-clients-fake");
  const root = join(dir, "ws");
  mkdirSync(root);
  for (let i = 0; i < SITES; i++) writeFileSync(join(root, `m${i}.fake`), "alpha beta\n");
  const target = pathToFileURL(join(root, "m0.fake")).href;
  const at = { start: { line: 0, character: 6 }, end: { line: 0, character: 10 } };
  const scenario = {
    capabilities: { textDocumentSync: 1, definitionProvider: true },
    responses: { "textDocument/definition": [{ uri: target, range: at }] },
    response_delay_ms: { "textDocument/definition": FAKE_DELAY_MS },
  };
  const config = writeBridgeConfig(
    {
      workspace: [{ name: "w", root, servers: ["fake"] }],
      server: [fakeServer("fake", scenario)],
    },
    dir,
  );
  return {
    label: `the fake server, every answer after ${FAKE_DELAY_MS} ms, side by side`,
    config,
    site: (k) => ({ args: { file: `m${k % SITES}.fake`, line: 1, column: 1 }, expect: "m0.fake" }),
    dedicated: false,
    dir,
  };
}

let nextId = 100;
/** One definition at site `k`; its ms from the request written to the answer read. */
async function definition(setup: Setup, c: LineClient, k: number): Promise<number> {
  const id = nextId++;
  const { args, expect } = setup.site(k);
  const start = performance.now();
  c.call(id, "definition", args);
  const answer = await c.answer(id, 180_000);
  const ms = performance.now() - start;
  if (!answer.includes(expect) || answer.includes('"isError":true'))
    throw new Error(answer.slice(0, 300));
  return ms;
}

/**
 * `n` calls from site `offset` on: each as soon as the last one answered, or (`think`)
 * after an exponential think time — the workload, not a wait for state.
 */
async function loop(
  setup: Setup,
  c: LineClient,
  n: number,
  offset: number,
  think: boolean,
): Promise<number[]> {
  const rng = new Prng(Prng.derive(7, "think", offset));
  const times: number[] = [];
  for (let k = 0; k < n; k++) {
    if (think) {
      const gap = -Math.log(1 - rng.next()) * THINK_MEAN_MS;
      await new Promise((resolve) => setTimeout(resolve, gap));
    }
    times.push(await definition(setup, c, offset + k));
  }
  return times;
}

/** CPU ms so far of each group of processes (a process gone meanwhile counts 0). */
type Groups = Record<string, () => number[]>;
const cpuOf = (pids: number[]) => pids.reduce((sum, p) => sum + (cpuMs(p) ?? 0), 0);
const under = (pid: number) => treeOf(pid).flatMap((p) => (p.pid === pid ? [] : [p.pid]));
const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

/**
 * Until `pids` used under QUIET_CPU_MS of CPU in a QUIET_WINDOW_MS window (bounded): the
 * server's own work after the warm-up (typescript-language-server checks the documents
 * just opened) must not fall into the first phase.
 */
async function quiet(pids: number[]): Promise<void> {
  const deadline = performance.now() + 60_000;
  let last = cpuOf(pids);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
    const now = cpuOf(pids);
    if (now - last < QUIET_CPU_MS || performance.now() > deadline) return;
    last = now;
  }
}

/** Run `calls`, then print its latency, the CPU per call of each group, and the load. */
async function phase(name: string, groups: Groups, run: () => Promise<number[]>): Promise<void> {
  await quiet(Object.values(groups).flatMap((list) => list()));
  const pids = Object.fromEntries(Object.entries(groups).map(([g, list]) => [g, list()]));
  const before = Object.fromEntries(Object.entries(pids).map(([g, p]) => [g, cpuOf(p)]));
  const started = performance.now();
  const times = await run();
  const wall = performance.now() - started;
  const cpu = Object.entries(pids)
    .map(([g, p]) => `${g} ${((cpuOf(p) - (before[g] ?? 0)) / times.length).toFixed(1)}`)
    .join(", ");
  const s = summarize(times);
  console.log(
    `${name}: p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms (n ${s.n}, ` +
      `${((times.length / wall) * 1000).toFixed(1)} calls/s); CPU ms per call: ${cpu}; ` +
      `load ${loadAverage()}`,
  );
}

const treeMb = (pids: number[]) =>
  pids.flatMap((p) => treeOf(p).map((t) => pssMb(t.pid) ?? 0)).reduce((a, b) => a + b, 0);
const all = <T>(xs: T[], f: (x: T, i: number) => Promise<number[]>) =>
  Promise.all(xs.map(f)).then((r) => r.flat());

/** The shared phases on one bridge, then (closed loop) eight dedicated bridges. */
async function measure(setup: Setup): Promise<void> {
  console.log(`${setup.label}:`);
  const closedLoop = (c: LineClient, n: number, offset: number) => loop(setup, c, n, offset, false);
  const thinking = (c: LineClient, n: number, offset: number) => loop(setup, c, n, offset, true);
  const world = new SharedWorld();
  try {
    const clients = Array.from({ length: CLIENTS }, () => world.client(["--config", setup.config]));
    for (const c of clients) await c.initialize("bench");
    const first = clients[0] as LineClient;
    await closedLoop(first, 2 * SITES, 0); // warm: server ready, every site's file open
    const bridge = await world.only();
    const groups: Groups = {
      bridge: () => [bridge.pid],
      relays: () => clients.map((c) => c.pid),
      servers: () => under(bridge.pid),
    };
    await phase("  closed loop, one client", groups, () => closedLoop(first, calls, 0));
    await phase(`  closed loop, ${CLIENTS} clients`, groups, () =>
      all(clients, (c, i) => closedLoop(c, calls, i * 2)),
    );
    await phase("  think time, one client", groups, () => thinking(first, calls, 0));
    await phase(`  think time, ${CLIENTS} clients`, groups, () =>
      all(clients, (c, i) => thinking(c, calls, i * 2)),
    );
    if (!setup.dedicated) return;
    const sharedMb = treeMb([bridge.pid]);
    console.log(
      `  shared bridge tree: ${bridge.pids.length} processes, PSS ${sharedMb.toFixed(0)} MB`,
    );
    for (const c of clients) c.kill();

    const dedicated = Array.from({ length: CLIENTS }, () =>
      world.client(["--config", setup.config, "--isolated"]),
    );
    for (const c of dedicated) await c.initialize("bench");
    await all(dedicated, (c) => closedLoop(c, 2 * SITES, 0));
    const apart: Groups = {
      bridges: () => dedicated.map((c) => c.pid),
      servers: () => dedicated.flatMap((c) => under(c.pid)),
    };
    await phase(`  closed loop, ${CLIENTS} dedicated bridges`, apart, () =>
      all(dedicated, (c, i) => closedLoop(c, calls, i * 2)),
    );
    const dedicatedMb = treeMb(dedicated.map((c) => c.pid));
    console.log(`  ${CLIENTS} dedicated bridges' trees: PSS ${dedicatedMb.toFixed(0)} MB`);
  } finally {
    await world.cleanup();
    removeDir(setup.dir);
  }
}

binary();
const only = process.argv.slice(2).find((a) => !a.startsWith("--"));
if (only === undefined || only === "fake") await measure(fakeSetup());
if (only === undefined || only === "tls") {
  const tls = await findTypescriptLanguageServer();
  if (tls === null) console.log("typescript-language-server: not measured (run .ci/setup-servers)");
  else await measure(tlsSetup(tls.config));
}
