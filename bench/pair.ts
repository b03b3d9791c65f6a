/**
 * One language server driven two ways at once for the overhead benchmark: through the
 * compiled bridge (raw MCP client) and directly (bench/lsp-direct.ts), each on its own
 * copy of the same workspace (servers write caches into their root), both waiting for
 * the same readiness before anything is timed, and every request timed interleaved —
 * bridge then direct on even iterations, direct then bridge on odd — so both see the same
 * machine noise.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { serverTable } from "../src/config/toml.ts";
import type { ServerConfig } from "../src/config/types.ts";
import { languageIdFor } from "../src/session/hooks.ts";
import { binary, writeBridgeConfig } from "./common.ts";
import { DirectLsp } from "./lsp-direct.ts";
import { RawMcpClient } from "./mcp-raw.ts";

const READY_TIMEOUT_MS = 300_000;

export interface Pair {
  server: ServerConfig;
  bridge: RawMcpClient;
  direct: DirectLsp;
  bridgeRoot: string;
  directRoot: string;
  close(): Promise<void>;
}

/**
 * Readiness both clients wait for: the preset's progress patterns with progress_required
 * (the preset alone would call a server ready if its indexing had not begun yet), or its
 * log line.
 */
function strictReadiness(server: ServerConfig): ServerConfig {
  if (server.ready.log_message !== null) return server;
  if (server.ready.progress.length === 0) throw new Error(`${server.name}: no readiness signal`);
  return { ...server, ready: { ...server.ready, progress_required: true } };
}

/**
 * A compiled bridge serving `root` with `server`, its session started and ready. `configDir`
 * receives its bridge.toml. `bridgeCommand` is the argv before `--config FILE`.
 */
export async function startBridge(
  server: ServerConfig,
  root: string,
  configDir: string,
  bridgeCommand: string[] = [binary()],
): Promise<RawMcpClient> {
  const config = writeBridgeConfig(
    {
      bridge: { ready_timeout_ms: READY_TIMEOUT_MS },
      workspace: [{ name: "w", root, servers: [server.name] }],
      server: [serverTable(strictReadiness(server))],
    },
    configDir,
  );
  const [program = "", ...prefix] = bridgeCommand;
  const bridge = new RawMcpClient({ binary: program, args: [...prefix, "--config", config] });
  try {
    await bridge.initialize();
    const status = await bridge.callOk("session_status", { start: true });
    const s = (status.structured.sessions as { state: string; last_error?: unknown }[])[0];
    if (s?.state !== "ready") throw new Error(`bridge session not ready: ${JSON.stringify(s)}`);
    return bridge;
  } catch (err) {
    await bridge.close();
    throw err;
  }
}

export async function startPair(
  base: ServerConfig,
  bridgeRoot: string,
  directRoot: string,
  configDir: string,
  /** the args the bridge derives from `requires` for a root (clangd: the compile_commands dir) */
  requiredArgs: (root: string) => string[],
  /** argv that runs the bridge before `--config FILE` (default: the compiled binary) */
  bridgeCommand: string[] = [binary()],
): Promise<Pair> {
  const server = strictReadiness(base);
  const direct = new DirectLsp(server, directRoot, requiredArgs(directRoot));
  const [bridge, ready] = await Promise.allSettled([
    startBridge(server, bridgeRoot, configDir, bridgeCommand),
    direct.startReady(READY_TIMEOUT_MS),
  ]);
  if (bridge.status === "rejected" || ready.status === "rejected") {
    await Promise.all([bridge.status === "fulfilled" ? bridge.value.close() : null, direct.stop()]);
    throw bridge.status === "rejected" ? bridge.reason : (ready as PromiseRejectedResult).reason;
  }
  return {
    server,
    bridge: bridge.value,
    direct,
    bridgeRoot,
    directRoot,
    async close() {
      await Promise.all([bridge.value.close(), direct.stop()]);
    },
  };
}

/** A position given as (1-based line, text on it), in both clients' conventions. */
export interface Spot {
  file: string;
  line: number;
  symbol: string;
  occurrence?: number;
}

/** The bridge's arguments for a spot: file, line and a 1-based code-point column. */
export function bridgePosition(root: string, spot: Spot): Record<string, unknown> {
  const { character } = lspPosition(root, spot);
  return { file: spot.file, line: spot.line, column: character + 1 };
}

/**
 * The LSP position of a spot. Spots are chosen on ASCII lines, where every encoding's
 * character offset is the JS string index; a non-ASCII line is refused.
 */
export function lspPosition(root: string, spot: Spot): { line: number; character: number } {
  const text = readFileSync(join(root, spot.file), "utf8").split("\n")[spot.line - 1];
  if (text === undefined) throw new Error(`${spot.file}:${spot.line} does not exist`);
  if (!/^[\x20-\x7e\t]*$/.test(text)) throw new Error(`${spot.file}:${spot.line} is not ASCII`);
  let at = -1;
  for (let k = 0; k < (spot.occurrence ?? 1); k++) at = text.indexOf(spot.symbol, at + 1);
  if (at < 0) throw new Error(`${spot.symbol} not on ${spot.file}:${spot.line}`);
  return { line: spot.line - 1, character: at };
}

/** Open the spot's file in the direct client (as the bridge does on first use); its uri. */
export async function directOpen(pair: Pair, file: string): Promise<string> {
  const abs = join(pair.directRoot, file);
  return pair.direct.openFile(abs, languageIdFor(pair.server, abs));
}

/** One measured operation, in each form. Each returns the item count it got, for checks. */
export interface Case {
  name: string;
  /** run before each timed round, untimed (e.g. edit the file on disk in both roots) */
  prepare?: (iteration: number) => void;
  /** unmeasured rounds for this case, when not the run's (a slow case needs fewer) */
  warmup?: number;
  bridge: () => Promise<number>;
  direct: () => Promise<number>;
  /** the same question through a peer bridge (cclsp), when it has the tool */
  peer?: () => Promise<number>;
}

export interface CaseResult {
  name: string;
  bridge: number[];
  direct: number[];
  /** present when the case has a peer side */
  peer?: number[];
  /** item counts seen (bridge, direct, peer) on the last run: a check that all did the same */
  counts: { bridge: number; direct: number; peer?: number };
}

type Side = "bridge" | "direct" | "peer";

async function timed(fn: () => Promise<number>): Promise<{ ms: number; count: number }> {
  const start = performance.now();
  const count = await fn();
  return { ms: performance.now() - start, count };
}

/**
 * Every case `warmup + iterations` times; each round runs every side once, the order
 * rotating from round to round so that no side always goes first (and so sees the other's
 * after-effects, or a cold cache, more often).
 */
export async function runCases(
  cases: readonly Case[],
  iterations: number,
  warmup: number,
  /** called when a case's measured rounds begin ("start") and end ("end") */
  onMeasured?: (name: string, phase: "start" | "end") => void,
): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const c of cases) {
    const sides: Side[] = c.peer ? ["bridge", "direct", "peer"] : ["bridge", "direct"];
    const result: CaseResult = {
      name: c.name,
      bridge: [],
      direct: [],
      ...(c.peer ? { peer: [] } : {}),
      counts: { bridge: 0, direct: 0 },
    };
    const warm = c.warmup ?? warmup;
    for (let i = 0; i < warm + iterations; i++) {
      if (i === warm) onMeasured?.(c.name, "start");
      c.prepare?.(i);
      for (let k = 0; k < sides.length; k++) {
        const side = sides[(i + k) % sides.length] as Side;
        const run = c[side] as () => Promise<number>;
        const got = await timed(run);
        result.counts[side] = got.count;
        if (i >= warm) result[side]?.push(got.ms);
      }
    }
    onMeasured?.(c.name, "end");
    results.push(result);
  }
  return results;
}
