/**
 * Where the per-call time goes:
 *
 *   bun bench/profile.ts [--server tls|clangd] [--files N] [--tools a,b,…] [--calls N]
 *                        [--binary PATH] [--cpu-prof] [--strace]
 *
 * The bridge serves each tool many times on a generated workspace (same spots and
 * readiness as the overhead benchmark). Printed per tool: wall time per call, and the CPU
 * time the bridge (every thread, schedstat) and its supervisor used per call — unlike
 * wall-clock time, CPU time hardly grows when other work shares the cores.
 * - From source (no --binary): the bridge runs under `bun --cpu-prof`, one bridge per
 *   tool, and the profile is summarized by sample counts (bench/cpuprofile.ts: our code,
 *   the MCP SDK, vscode-jsonrpc, zod, Bun's runtime, native calls charged to their caller).
 *   Profiles are kept in bench/out/profile-<server>-<files>/. `--binary PATH --cpu-prof`
 *   profiles a compiled build the same way (Bun's options through BUN_OPTIONS), at its own
 *   JIT policy — the tiers the shipped bridge runs in; frames are attributed to modules
 *   when the build is unminified (`bun build.ts --unminified --outfile PATH`).
 * - --binary PATH: the compiled build, all tools on one bridge (compare two builds);
 *   `--binary source` runs the sources the same way, without a profiler.
 * - --strace: the bridge's system calls per call (`strace -c -f`), with either.
 * - --perf: `perf record` of the bridge's threads (cpu-clock) during the calls; the shares
 *   by thread, by shared object (kernel, the binary, JIT code) and the top symbols.
 * - --direct: a direct LSP client (bench/lsp-direct.ts) on a twin workspace asks the same
 *   question between two bridge calls, as in the overhead benchmark (its server and client
 *   share the cores and caches with the bridge); only the bridge is measured.
 * - --memory: the bridge's memory after the calls (VmRSS, RssAnon / RssFile, PSS, the largest
 *   mapping classes from /proc/PID/smaps), right after and after 2 s idle.
 * - --timeline: the bridge's critical path per call from syscall tracepoints (`perf record`
 *   of recvfrom/sendto, low overhead): MCP request read → LSP request written ("in"),
 *   LSP answer read → MCP answer written ("out"), p50 and p95 in µs.
 * Not part of `run.ts`.
 */
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { serverTable } from "../src/config/toml.ts";
import type { ServerConfig } from "../src/config/types.ts";
import { languageIdFor } from "../src/session/hooks.ts";
import { findWarmupFile } from "../src/session/warmup.ts";
import { findClangd, findTypescriptLanguageServer } from "../test/support/real-servers.ts";
import { workspaceAt } from "../test/support/workspace.ts";
import { makeTempDir, removeDir, writeBridgeConfig } from "./common.ts";
import { bundleModulesOf, printSummary, summarizeProfile } from "./cpuprofile.ts";
import { generateCWorkspace } from "./gen-c-fixture.ts";
import { generateTsWorkspace } from "./gen-ts-fixture.ts";
import { DirectLsp } from "./lsp-direct.ts";
import { RawMcpClient } from "./mcp-raw.ts";
import { bridgePosition, lspPosition, type Spot } from "./pair.ts";
import { memoryReport, perfed, straced, timeline } from "./process-probes.ts";
import { cpuMs } from "./procfs.ts";
import { percentile } from "./stats.ts";

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

const ALL_TOOLS = ["hover", "definition", "references", "document_symbols", "workspace_symbols"];
const serverName = flag("server", "tls");
const files = Number(flag("files", "1000"));
const tools = flag("tools", ALL_TOOLS.join(",")).split(",");
const calls = Number(flag("calls", "1000"));
const compiled = flag("binary", "");
const withStrace = process.argv.includes("--strace");
const cpuProfBinary =
  compiled !== "" && compiled !== "source" && process.argv.includes("--cpu-prof");
const withPerf = process.argv.includes("--perf");
const withTimeline = process.argv.includes("--timeline");
const withMemory = process.argv.includes("--memory");
const withDirect = process.argv.includes("--direct");
const WARMUP = 50;

interface Workspace {
  server: ServerConfig;
  root: string;
  args: (tool: string) => Record<string, unknown>;
  /** the same workspace generated again elsewhere (the direct client's twin) */
  twin: (root: string) => void;
  /** the tool's question as an LSP request on a twin at `root` (file opened first) */
  request: (tool: string, root: string) => { method: string; params: unknown; file?: string };
}

async function workspace(dir: string): Promise<Workspace> {
  const found = serverName === "clangd" ? await findClangd() : await findTypescriptLanguageServer();
  if (!found) throw new Error(`${serverName} not found`);
  const root = join(dir, "ws");
  const i = Math.floor(files * 0.345);
  const fn = (k: number) => `fn_${String(k % files).padStart(4, "0")}`;
  let hub: Spot;
  let unit: string;
  let query: string;
  let hoverSpot: Spot;
  let definitionSpot: Spot;
  let server = found.config;
  const generate = serverName === "clangd" ? generateCWorkspace : generateTsWorkspace;
  generate(root, files);
  if (serverName === "clangd") {
    unit = `src/mod${i % 10}/${fn(i)}.c`;
    hub = { file: "src/hub.c", line: 3, symbol: "hub" };
    hoverSpot = { file: unit, line: 6, symbol: fn(i + 1) };
    definitionSpot = { file: unit, line: 3, symbol: fn(i) };
    query = "fn_01";
  } else {
    unit = `src/mod${i % 10}/${fn(i)}.ts`;
    hub = { file: "src/hub.ts", line: 2, symbol: "hub" };
    hoverSpot = { file: unit, line: 20, symbol: fn(i + 1) };
    definitionSpot = { file: unit, line: 18, symbol: fn(i) };
    query = "Widget_00";
  }
  // the overhead benchmark's readiness: the preset's progress must have begun and ended
  server = { ...server, ready: { ...server.ready, progress_required: true } };
  return {
    server,
    root,
    args: (tool) => {
      if (tool === "references") return bridgePosition(root, hub);
      if (tool === "hover") return bridgePosition(root, hoverSpot);
      if (tool === "definition") return bridgePosition(root, definitionSpot);
      if (tool === "document_symbols") return { file: unit };
      if (tool === "workspace_symbols") return { query };
      throw new Error(`unknown tool ${tool}`);
    },
    twin: (other) => void generate(other, files),
    request: (tool, other) => {
      if (tool === "workspace_symbols") return { method: "workspace/symbol", params: { query } };
      if (tool === "document_symbols") {
        return { method: "textDocument/documentSymbol", params: {}, file: unit };
      }
      const spot = tool === "references" ? hub : tool === "hover" ? hoverSpot : definitionSpot;
      const context = tool === "references" ? { context: { includeDeclaration: true } } : {};
      const method = `textDocument/${tool}`;
      return {
        method,
        params: { position: lspPosition(other, spot), ...context },
        file: spot.file,
      };
    },
  };
}

/** A direct client on a twin workspace, ready as the bridge's session is (bench/pair.ts). */
async function directTwin(ws: Workspace, dir: string): Promise<DirectLsp> {
  const root = join(dir, "direct");
  ws.twin(root);
  const extra = serverName === "clangd" ? [`--compile-commands-dir=${root}`] : [];
  const direct = new DirectLsp(ws.server, root, extra);
  await direct.start();
  const glob = ws.server.ready.warmup_open;
  if (glob !== null) {
    const { opened } = await findWarmupFile(workspaceAt(root), glob);
    if (opened !== undefined)
      await direct.openFile(opened.abs, languageIdFor(ws.server, opened.abs));
  }
  await direct.waitProgressDone(
    ws.server.ready.progress.map((p) => new RegExp(p)),
    300_000,
  );
  return direct;
}

/** The direct client's form of a tool call, on its twin at `root`. */
function directCall(ws: Workspace, direct: DirectLsp, tool: string): () => Promise<unknown> {
  const { method, params, file } = ws.request(tool, direct.root);
  return async () => {
    if (file === undefined) return direct.request(method, params);
    const abs = join(direct.root, file);
    const uri = await direct.openFile(abs, languageIdFor(ws.server, abs));
    return direct.request(method, { textDocument: { uri }, ...(params as object) });
  };
}

async function startBridge(
  ws: Workspace,
  dir: string,
  command: string[],
  extraEnv: Record<string, string> = {},
): Promise<RawMcpClient> {
  const config = writeBridgeConfig(
    {
      bridge: { ready_timeout_ms: 300_000 },
      workspace: [{ name: "w", root: ws.root, servers: [ws.server.name] }],
      server: [serverTable(ws.server)],
    },
    dir,
  );
  const [program = "", ...prefix] = command;
  // JSC options (BUN_JSC_*) reach the bridge, for experiments (GC logging, JIT tiers), and
  // BUN_BYTECODE_ORDER_OUT for bench/record-order.ts
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    const passed = k.startsWith("BUN_JSC_") || k.startsWith("THEODOLITE_");
    if ((passed || k === "BUN_BYTECODE_ORDER_OUT") && v !== undefined) env[k] = v;
  }
  Object.assign(env, extraEnv);
  const bridge = new RawMcpClient({ binary: program, args: [...prefix, "--config", config], env });
  await bridge.initialize();
  const status = await bridge.callOk("session_status", { start: true });
  const s = (status.structured.sessions as { state: string }[])[0];
  if (s?.state !== "ready") throw new Error(`session not ready: ${JSON.stringify(s)}`);
  return bridge;
}

async function measureTool(
  bridge: RawMcpClient,
  ws: Workspace,
  tool: string,
  supervisor: number | null,
  direct?: DirectLsp,
): Promise<void> {
  const args = ws.args(tool);
  const between = direct === undefined ? undefined : directCall(ws, direct, tool);
  const one = async () => {
    await between?.();
    return bridge.callOk(tool, args);
  };
  let total = 0;
  for (let i = 0; i < WARMUP; i++) {
    const r = await one();
    total = typeof r.structured.total === "number" ? r.structured.total : 1;
  }
  const cpu = () => [cpuMs(bridge.pid) ?? 0, supervisor === null ? 0 : (cpuMs(supervisor) ?? 0)];
  const run = async () => {
    for (let i = 0; i < calls; i++) await one();
  };
  const cpu0 = cpu();
  const t0 = performance.now();
  const times = { bridge: [] as number[], direct: [] as number[] };
  if (between === undefined) await run();
  else {
    for (let i = 0; i < calls; i++) {
      const d0 = performance.now();
      await between();
      const b0 = performance.now();
      await bridge.callOk(tool, args);
      times.direct.push(b0 - d0);
      times.bridge.push(performance.now() - b0);
    }
  }
  const wall = (performance.now() - t0) / calls;
  const [b, s] = cpu().map((v, k) => (v - (cpu0[k] as number)) / calls);
  console.log(
    `${tool} (${total} items), ${calls} calls: ${wall.toFixed(3)} ms/call wall; CPU per call: ` +
      `bridge ${b?.toFixed(3)} ms, supervisor ${s?.toFixed(3)} ms`,
  );
  if (between !== undefined) {
    const diffs = times.bridge.map((t, k) => t - (times.direct[k] as number));
    const ms = (xs: number[], q: number) => percentile(xs, q).toFixed(3);
    console.log(
      `  direct p50 ${ms(times.direct, 50)} ms, bridge p50 ${ms(times.bridge, 50)} ms; ` +
        `bridge − direct p50 ${ms(diffs, 50)} ms, p95 ${ms(diffs, 95)} ms`,
    );
  }
  if (withStrace) {
    const n = Math.min(calls, 300);
    const table = await straced(bridge.pid, n, async () => {
      for (let i = 0; i < n; i++) await one();
    });
    console.log(`  system calls per call (strace -c -f, ${n} calls):\n${table}`);
    const log = join(import.meta.dir, "out", `strace-${serverName}-${files}-${tool}.log`);
    mkdirSync(join(log, ".."), { recursive: true });
    await straced(
      bridge.pid,
      3,
      async () => {
        for (let i = 0; i < 3; i++) await bridge.callOk(tool, args);
      },
      log,
    );
    console.log(`  the system calls of 3 calls: ${log}`);
  }
  if (withTimeline) {
    const report = await timeline(bridge.pid, run);
    console.log(`  the bridge's critical path:\n${report}`);
  }
  if (withPerf) {
    const report = await perfed(bridge.pid, run);
    console.log(`  perf (cpu-clock samples of the bridge, ${calls} calls):\n${report}`);
  }
}

async function supervisorOf(bridge: RawMcpClient): Promise<number | null> {
  const status = await bridge.callOk("session_status", {});
  const sessions = status.structured.sessions as { pids: { supervisor: number | null } }[];
  return sessions[0]?.pids.supervisor ?? null;
}

const dir = makeTempDir("profile");
try {
  const ws = await workspace(dir);
  console.log(`${serverName}, ${files} files`);
  if (compiled !== "" && !cpuProfBinary) {
    const main = join(import.meta.dir, "..", "src", "main.ts");
    const command = compiled === "source" ? [process.execPath, main] : [compiled];
    const [bridge, direct] = await Promise.all([
      startBridge(ws, dir, command),
      withDirect ? directTwin(ws, dir) : undefined,
    ]);
    try {
      const supervisor = await supervisorOf(bridge);
      for (const tool of tools) await measureTool(bridge, ws, tool, supervisor, direct);
      if (process.env.BUN_JSC_logGC !== undefined) console.log(bridge.stderr().slice(-3000));
      if (withMemory) {
        console.log(`memory right after: ${memoryReport(bridge.pid)}`);
        await new Promise((resolve) => setTimeout(resolve, 2000));
        console.log(`memory after 2 s idle: ${memoryReport(bridge.pid)}`);
      }
    } finally {
      await Promise.all([bridge.close(), direct?.stop()]);
    }
  } else {
    const outDir = join(import.meta.dir, "out", `profile-${serverName}-${files}`);
    mkdirSync(outDir, { recursive: true });
    const main = join(import.meta.dir, "..", "src", "main.ts");
    for (const tool of tools) {
      const profDir = join(outDir, tool);
      rmSync(profDir, { recursive: true, force: true });
      const profiling = ["--cpu-prof", "--cpu-prof-interval=250", `--cpu-prof-dir=${profDir}`];
      // a compiled build takes Bun's options from BUN_OPTIONS (its own JIT policy stays)
      const bridge = cpuProfBinary
        ? await startBridge(ws, dir, [compiled], { BUN_OPTIONS: profiling.join(" ") })
        : await startBridge(ws, dir, [process.execPath, ...profiling, main]);
      try {
        await measureTool(bridge, ws, tool, await supervisorOf(bridge));
      } finally {
        await bridge.close();
      }
      const file = readdirSync(profDir).find((f) => f.endsWith(".cpuprofile"));
      if (file === undefined) throw new Error(`no profile written in ${profDir}`);
      const bundle = cpuProfBinary ? bundleModulesOf(compiled) : undefined;
      if (cpuProfBinary && bundle === undefined) {
        console.log("(a minified build: for modules, `bun build.ts --unminified --outfile PATH`)");
      }
      printSummary(summarizeProfile(join(profDir, file), bundle), 25);
      console.log("");
    }
  }
} finally {
  removeDir(dir);
}
