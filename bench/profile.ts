/**
 * Where the per-call time goes:
 *
 *   bun bench/profile.ts [--server tls|clangd] [--files N] [--tools a,b,…] [--calls N]
 *                        [--binary PATH] [--strace]
 *
 * The bridge serves each tool many times on a generated workspace (same spots and
 * readiness as the overhead benchmark). Printed per tool: wall time per call, and the CPU
 * time the bridge (every thread, schedstat) and its supervisor used per call — unlike
 * wall-clock time, CPU time hardly grows when other work shares the cores.
 * - From source (no --binary): the bridge runs under `bun --cpu-prof`, one bridge per
 *   tool, and the profile is summarized by sample counts (bench/cpuprofile.ts: our code,
 *   the MCP SDK, vscode-jsonrpc, zod, Bun's runtime, native calls charged to their caller).
 *   Profiles are kept in bench/out/profile-<server>-<files>/.
 * - --binary PATH: the compiled build, all tools on one bridge (compare two builds);
 *   `--binary source` runs the sources the same way, without a profiler.
 * - --strace: the bridge's system calls per call (`strace -c -f`), with either.
 * - --perf: `perf record` of the bridge's threads (cpu-clock) during the calls; the shares
 *   by thread, by shared object (kernel, the binary, JIT code) and the top symbols.
 * - --memory: the bridge's memory after the calls (VmRSS, RssAnon / RssFile, PSS, the largest
 *   mapping classes from /proc/PID/smaps), right after and after 2 s idle.
 * - --timeline: the bridge's critical path per call from syscall tracepoints (`perf record`
 *   of recvfrom/sendto, low overhead): MCP request read → LSP request written ("in"),
 *   LSP answer read → MCP answer written ("out"), p50 and p95 in µs.
 * Not part of `run.ts`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { serverTable } from "../src/config/toml.ts";
import type { ServerConfig } from "../src/config/types.ts";
import { findClangd, findTypescriptLanguageServer } from "../test/support/real-servers.ts";
import { makeTempDir, pollUntil, removeDir, writeBridgeConfig } from "./common.ts";
import { printSummary, summarizeProfile } from "./cpuprofile.ts";
import { generateCWorkspace } from "./gen-c-fixture.ts";
import { generateTsWorkspace } from "./gen-ts-fixture.ts";
import { RawMcpClient } from "./mcp-raw.ts";
import { bridgePosition, type Spot } from "./pair.ts";
import { cpuMs, pssMb } from "./procfs.ts";

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
const withPerf = process.argv.includes("--perf");
const withTimeline = process.argv.includes("--timeline");
const withMemory = process.argv.includes("--memory");
const WARMUP = 50;

interface Workspace {
  server: ServerConfig;
  root: string;
  args: (tool: string) => Record<string, unknown>;
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
  if (serverName === "clangd") {
    generateCWorkspace(root, files);
    unit = `src/mod${i % 10}/${fn(i)}.c`;
    hub = { file: "src/hub.c", line: 3, symbol: "hub" };
    hoverSpot = { file: unit, line: 6, symbol: fn(i + 1) };
    definitionSpot = { file: unit, line: 3, symbol: fn(i) };
    query = "fn_01";
  } else {
    generateTsWorkspace(root, files);
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
  };
}

async function startBridge(ws: Workspace, dir: string, command: string[]): Promise<RawMcpClient> {
  const config = writeBridgeConfig(
    {
      bridge: { ready_timeout_ms: 300_000 },
      workspace: [{ name: "w", root: ws.root, servers: [ws.server.name] }],
      server: [serverTable(ws.server)],
    },
    dir,
  );
  const [program = "", ...prefix] = command;
  // JSC options (BUN_JSC_*) reach the bridge, for experiments (GC logging, JIT tiers)
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if ((k.startsWith("BUN_JSC_") || k.startsWith("THEODOLITE_")) && v !== undefined) env[k] = v;
  }
  const bridge = new RawMcpClient({ binary: program, args: [...prefix, "--config", config], env });
  await bridge.initialize();
  const status = await bridge.callOk("session_status", { start: true });
  const s = (status.structured.sessions as { state: string }[])[0];
  if (s?.state !== "ready") throw new Error(`session not ready: ${JSON.stringify(s)}`);
  return bridge;
}

/** `strace -c -f -p PID` around `fn`; its summary table, per call. */
async function straced(
  pid: number,
  n: number,
  fn: () => Promise<void>,
  log?: string,
): Promise<string> {
  const out = log ?? `${makeTempDir("strace")}/summary`;
  const mode = log === undefined ? ["-c"] : ["-tt", "-T", "-s", "80"];
  const strace = Bun.spawn(["strace", ...mode, "-f", "-o", out, "-p", String(pid)], {
    stderr: "pipe",
  });
  // strace says "Process PID attached" once it is tracing
  const reader = strace.stderr.getReader();
  let text = "";
  while (!text.includes("attached")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  await fn();
  strace.kill("SIGINT");
  await strace.exited;
  if (log !== undefined) return `    written to ${log}`;
  const lines = (await Bun.file(out).text()).split("\n");
  removeDir(join(out, ".."));
  return lines
    .filter((l) => /^\s*[\d.]+\s+[\d.]+\s+\d+\s+\d+/.test(l))
    .map((l) => {
      const f = l.trim().split(/\s+/);
      const count = Number(f[3]);
      return `    ${(count / n).toFixed(2).padStart(8)} × ${f[f.length - 1]}`;
    })
    .join("\n");
}

/** `perf record -g -p PID` around `fn`; shares by thread, object and symbol. */
async function perfed(pid: number, fn: () => Promise<void>): Promise<string> {
  const tmp = makeTempDir("perf");
  const data = join(tmp, "perf.data");
  const perf = Bun.spawn(
    ["perf", "record", "-e", "cpu-clock", "-F", "4000", "-g", "-o", data, "-p", String(pid)],
    { stdout: "ignore", stderr: "ignore" },
  );
  // perf has no "attached" line: wait until it created its output file
  await pollUntil(() => existsSync(data), 10_000, "perf record started");
  await fn();
  perf.kill("SIGINT");
  await perf.exited;
  const report = (sort: string, lines: number) => {
    const r = Bun.spawnSync(
      ["perf", "report", "-i", data, "--stdio", "--no-children", "-g", "none", "--sort", sort],
      { stdout: "pipe", stderr: "ignore" },
    );
    return r.stdout
      .toString()
      .split("\n")
      .filter((l) => /^\s+[\d.]+%/.test(l))
      .slice(0, lines)
      .map((l) => `    ${l.trim()}`)
      .join("\n");
  };
  const out = [
    `  by thread:\n${report("comm", 10)}`,
    `  by object:\n${report("dso", 10)}`,
    `  top symbols:\n${report("dso,sym", 40)}`,
  ].join("\n");
  removeDir(tmp);
  return out;
}

/**
 * The bridge's own critical path per call, from recvfrom/sendto tracepoints of its main
 * thread: "in" = the MCP request's bytes read (stdin, fd 0) → the first sendto after it
 * (the LSP request); "out" = the next recvfrom with data (the LSP answer) → the next
 * sendto (the MCP answer).
 */
async function timeline(pid: number, fn: () => Promise<void>): Promise<string> {
  const tmp = makeTempDir("timeline");
  const data = join(tmp, "perf.data");
  const events = ["sys_enter_recvfrom", "sys_exit_recvfrom", "sys_enter_sendto"];
  const perf = Bun.spawn(
    [
      "perf",
      "record",
      ...events.flatMap((e) => ["-e", `syscalls:${e}`]),
      "-o",
      data,
      "-p",
      String(pid),
    ],
    { stdout: "ignore", stderr: "ignore" },
  );
  await pollUntil(() => existsSync(data), 10_000, "perf record started");
  await fn();
  perf.kill("SIGINT");
  await perf.exited;
  const script = Bun.spawnSync(["perf", "script", "-i", data, "-F", "tid,time,event,trace"], {
    stdout: "pipe",
    stderr: "ignore",
  }).stdout.toString();
  removeDir(tmp);
  const ins: number[] = [];
  const outs: number[] = [];
  let lastFd = -1;
  let phase: "idle" | "in" | "server" | "out" = "idle";
  let since = 0;
  for (const line of script.split("\n")) {
    const m = /^\s*(\d+)\s+([\d.]+):\s+syscalls:(\w+):\s*(.*)$/.exec(line);
    if (!m || Number(m[1]) !== pid) continue;
    const t = Number(m[2]) * 1e6;
    const event = m[3];
    const fd = /fd: (0x[0-9a-f]+)/.exec(m[4] ?? "");
    if (event === "sys_enter_recvfrom" && fd) lastFd = Number(fd[1]);
    else if (event === "sys_exit_recvfrom") {
      const ret = Number(/0x[0-9a-f]+$/.exec(m[4] ?? "")?.[0] ?? "-1");
      const got = ret > 0 && ret < 2 ** 62;
      if (!got) continue;
      if (lastFd === 0 && phase === "idle") [phase, since] = ["in", t];
      else if (lastFd !== 0 && phase === "server") [phase, since] = ["out", t];
    } else if (event === "sys_enter_sendto") {
      if (phase === "in") {
        ins.push(t - since);
        phase = "server";
      } else if (phase === "out") {
        outs.push(t - since);
        phase = "idle";
      }
    }
  }
  const q = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length === 0 ? NaN : (s[Math.min(s.length - 1, Math.floor(p * s.length))] as number);
  };
  const row = (name: string, xs: number[]) =>
    `    ${name}: p50 ${q(xs, 0.5).toFixed(0)} µs, p95 ${q(xs, 0.95).toFixed(0)} µs (n = ${xs.length})`;
  return [
    row("in  (MCP request read → LSP request written)", ins),
    row("out (LSP answer read → MCP answer written)", outs),
  ].join("\n");
}

async function measureTool(
  bridge: RawMcpClient,
  ws: Workspace,
  tool: string,
  supervisor: number | null,
): Promise<void> {
  const args = ws.args(tool);
  let total = 0;
  for (let i = 0; i < WARMUP; i++) {
    const r = await bridge.callOk(tool, args);
    total = typeof r.structured.total === "number" ? r.structured.total : 1;
  }
  const cpu = () => [cpuMs(bridge.pid) ?? 0, supervisor === null ? 0 : (cpuMs(supervisor) ?? 0)];
  const run = async () => {
    for (let i = 0; i < calls; i++) await bridge.callOk(tool, args);
  };
  const cpu0 = cpu();
  const t0 = performance.now();
  await run();
  const wall = (performance.now() - t0) / calls;
  const [b, s] = cpu().map((v, k) => (v - (cpu0[k] as number)) / calls);
  console.log(
    `${tool} (${total} items), ${calls} calls: ${wall.toFixed(3)} ms/call wall; CPU per call: ` +
      `bridge ${b?.toFixed(3)} ms, supervisor ${s?.toFixed(3)} ms`,
  );
  if (withStrace) {
    const n = Math.min(calls, 300);
    const table = await straced(bridge.pid, n, async () => {
      for (let i = 0; i < n; i++) await bridge.callOk(tool, args);
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
    const report = await timeline(bridge.pid, async () => {
      for (let i = 0; i < calls; i++) await bridge.callOk(tool, args);
    });
    console.log(`  the bridge's critical path:\n${report}`);
  }
  if (withPerf) {
    const report = await perfed(bridge.pid, async () => {
      for (let i = 0; i < calls; i++) await bridge.callOk(tool, args);
    });
    console.log(`  perf (cpu-clock samples of the bridge, ${calls} calls):\n${report}`);
  }
}

/** VmRSS, RssAnon, RssFile and PSS in MB, and the resident MB of the largest mapping classes. */
function memoryReport(pid: number): string {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const mb = (kb: number) => (kb / 1024).toFixed(1);
  const field = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
  const classes = new Map<string, number>();
  let current = "";
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const head = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[2] === "" ? "[anon]" : (head[2] as string).replace(/^.*\//, "");
      current = `${head[1]} ${name}`;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) classes.set(current, (classes.get(current) ?? 0) + Number(rss[1]));
  }
  const top = [...classes]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([k, v]) => `${mb(v)} ${k}`)
    .join(", ");
  return (
    `VmRSS ${mb(field("VmRSS"))} MB (anon ${mb(field("RssAnon"))}, file ${mb(field("RssFile"))}), ` +
    `PSS ${pssMb(pid)?.toFixed(1)} MB, VmHWM ${mb(field("VmHWM"))} MB; ${top}`
  );
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
  if (compiled !== "") {
    const main = join(import.meta.dir, "..", "src", "main.ts");
    const command = compiled === "source" ? [process.execPath, main] : [compiled];
    const bridge = await startBridge(ws, dir, command);
    try {
      const supervisor = await supervisorOf(bridge);
      for (const tool of tools) await measureTool(bridge, ws, tool, supervisor);
      if (process.env.BUN_JSC_logGC !== undefined) console.log(bridge.stderr().slice(-3000));
      if (withMemory) {
        console.log(`memory right after: ${memoryReport(bridge.pid)}`);
        await new Promise((resolve) => setTimeout(resolve, 2000));
        console.log(`memory after 2 s idle: ${memoryReport(bridge.pid)}`);
      }
    } finally {
      await bridge.close();
    }
  } else {
    const outDir = join(import.meta.dir, "out", `profile-${serverName}-${files}`);
    mkdirSync(outDir, { recursive: true });
    const main = join(import.meta.dir, "..", "src", "main.ts");
    for (const tool of tools) {
      const profDir = join(outDir, tool);
      rmSync(profDir, { recursive: true, force: true });
      const command = [
        process.execPath,
        "--cpu-prof",
        "--cpu-prof-interval=250",
        `--cpu-prof-dir=${profDir}`,
        main,
      ];
      const bridge = await startBridge(ws, dir, command);
      try {
        await measureTool(bridge, ws, tool, await supervisorOf(bridge));
      } finally {
        await bridge.close();
      }
      const file = readdirSync(profDir).find((f) => f.endsWith(".cpuprofile"));
      if (file === undefined) throw new Error(`no profile written in ${profDir}`);
      printSummary(summarizeProfile(join(profDir, file)), 25);
      console.log("");
    }
  }
} finally {
  removeDir(dir);
}
