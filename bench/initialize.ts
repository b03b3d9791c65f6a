/**
 * Spawn → MCP `initialize` answered: the start-up cost an agent pays before its first
 * tool list. Timed with the raw NDJSON client (bench/mcp-raw.ts), from just before the
 * spawn to the parse of the reply; the request is written right after the spawn and
 * waits in the pipe until the bridge reads it. Sessions are lazy (SPEC §9.1), so no
 * server starts.
 *
 * Configured (`--config`) and zero-config (no configuration: discovery of the servers on
 * PATH and of the files present, SPEC §2.1) starts run interleaved, in a one-file
 * directory and in a generated tree (bench/gen-tree.ts) holding node_modules, .git and an
 * ignored build directory. Zero-config must answer `initialize` within 1.3× of the
 * configured start and the first `tools/list` within 10 ms: discovery runs after the
 * handshake, and `spawn → first session_status` shows when it has finished.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type BenchOptions,
  binary,
  count,
  fakeServer,
  makeTempDir,
  parseOptions,
  removeDir,
  writeBridgeConfig,
} from "./common.ts";
import { generateTree } from "./gen-tree.ts";
import { RawMcpClient } from "./mcp-raw.ts";
import { type Metric, metric } from "./stats.ts";

const GROUP = "initialize";
const TREE_FILES = 40_000;
/** zero-config discovers what a user's agent would find: the npm servers and the system ones */
const SERVERS_BIN = join(import.meta.dir, "..", "test", "servers", "node_modules", ".bin");

interface StartTimes {
  initialize: number;
  serving: number;
  toolsList: number;
  /** spawn → the first session_status answered (zero-config: discovery finished) */
  status: number;
}

async function timeStart(bin: string, args: string[], cwd: string): Promise<StartTimes> {
  const client = new RawMcpClient({
    binary: bin,
    args,
    cwd,
    env: { THEODOLITE_LOG_LEVEL: "info", PATH: `${SERVERS_BIN}:${process.env.PATH ?? ""}` },
  });
  try {
    const serving = client.stderrMatch(/serving MCP on stdio/);
    const reply = await client.initialize();
    const listStart = performance.now();
    const tools = await client.request("tools/list", {});
    if (tools.error) throw new Error(`tools/list failed: ${tools.error.message}`);
    const status = await client.callOk("session_status");
    return {
      initialize: reply.at - client.spawnedAt,
      serving: (await serving) - client.spawnedAt,
      toolsList: tools.at - listStart,
      status: status.at - client.spawnedAt,
    };
  } finally {
    await client.close();
  }
}

interface Samples {
  configured: StartTimes[];
  zero: StartTimes[];
}

async function measure(bin: string, dir: string, runs: number): Promise<Samples> {
  const configDir = makeTempDir("init-config");
  try {
    const config = writeBridgeConfig(
      {
        workspace: [{ name: "w", root: dir, servers: ["fake"] }],
        server: [fakeServer("fake", {})],
      },
      configDir,
    );
    const samples: Samples = { configured: [], zero: [] };
    // interleaved, so both see the same machine noise; the first two of each warm the
    // page cache and are not counted
    for (let i = 0; i < runs + 2; i++) {
      const configured = await timeStart(bin, ["--config", config], dir);
      const zero = await timeStart(bin, [], dir);
      if (i >= 2) {
        samples.configured.push(configured);
        samples.zero.push(zero);
      }
    }
    return samples;
  } finally {
    removeDir(configDir);
  }
}

const of = (runs: StartTimes[], key: keyof StartTimes) => runs.map((r) => r[key]);

function metricsFor(label: string, s: Samples): Metric[] {
  // run i of each side ran back to back: their ratio cancels most of the machine's noise
  const ratios = s.zero.map((z, i) => z.initialize / (s.configured[i]?.initialize ?? Number.NaN));
  return [
    metric(
      GROUP,
      `${label}: configured, spawn → initialize answered`,
      "ms",
      of(s.configured, "initialize"),
      [{ stat: "p50", max: 60 }],
    ),
    metric(
      GROUP,
      `${label}: zero-config, spawn → initialize answered`,
      "ms",
      of(s.zero, "initialize"),
    ),
    metric(GROUP, `${label}: zero-config / configured initialize, paired runs`, "×", ratios, [
      { stat: "p50", max: 1.3 },
    ]),
    metric(GROUP, `${label}: configured, first tools/list`, "ms", of(s.configured, "toolsList"), [
      { stat: "p50", max: 10 },
    ]),
    metric(GROUP, `${label}: zero-config, first tools/list`, "ms", of(s.zero, "toolsList"), [
      { stat: "p50", max: 10 },
    ]),
    metric(
      GROUP,
      `${label}: zero-config, spawn → first session_status`,
      "ms",
      of(s.zero, "status"),
      [],
      "discovery (version commands, bounded scan) finishes before this answer",
    ),
    metric(
      GROUP,
      `${label}: configured, spawn → 'serving MCP' logged`,
      "ms",
      of(s.configured, "serving"),
      [],
      "module load, config load and transport set-up, before the handshake",
    ),
  ];
}

export async function runInitialize(opts: BenchOptions): Promise<Metric[]> {
  const bin = binary();
  const oneFile = makeTempDir("init-one");
  const tree = makeTempDir("init-tree");
  try {
    writeFileSync(join(oneFile, "index.ts"), "export const x = 1;\n");
    generateTree(tree, TREE_FILES);
    const runs = count(opts, 15, 4);
    return [
      ...metricsFor("one-file dir", await measure(bin, oneFile, runs)),
      ...metricsFor(`${TREE_FILES / 1000}k-file tree`, await measure(bin, tree, runs)),
    ];
  } finally {
    removeDir(oneFile);
    removeDir(tree);
  }
}

if (import.meta.main) {
  const { printMetrics } = await import("./report.ts");
  printMetrics(await runInitialize(parseOptions(process.argv)));
}
