/**
 * Bridge resident memory with 4 live sessions (docs/PERFORMANCE.md#targets-and-verdicts): four workspaces, each with a
 * fake-server session started and used (hover, workspace_symbols, diagnostics), then
 * VmRSS of the bridge process alone from /proc/PID/status — supervisors and servers are
 * separate processes and not counted. Target ≤ 60 MB. Repeated over several bridges.
 */
import { mkdirSync, writeFileSync } from "node:fs";
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
import { RawMcpClient } from "./mcp-raw.ts";
import { pssMb, statusMb } from "./procfs.ts";
import { type Metric, metric } from "./stats.ts";

const GROUP = "rss";
const SESSIONS = 4;

const RESPONSES = {
  "textDocument/hover": { contents: { kind: "markdown", value: "```c\nint answer\n```" } },
  "workspace/symbol": Array.from({ length: 50 }, (_, i) => ({
    name: `symbol_${i}`,
    kind: 12,
    location: {
      uri: "file:///nonexistent/a.fake",
      range: { start: { line: i, character: 0 }, end: { line: i, character: 8 } },
    },
  })),
};

interface RssSample {
  idle: number;
  rss: number;
  hwm: number;
  /** proportional set size of the bridge: shared pages (the binary's code) split by mapper */
  pss: number;
  /** VmRSS of each session's supervisor (not part of the bridge's figure) */
  supervisors: number[];
  /** PSS of each session's supervisor */
  supervisorsPss: number[];
}

async function oneBridge(bin: string, dir: string): Promise<RssSample> {
  const workspaces: Record<string, unknown>[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const root = join(dir, `ws${i}`);
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, "a.fake"), "int answer = 42;\n".repeat(100));
    workspaces.push({ name: `ws${i}`, root, servers: ["fake"] });
  }
  const config = writeBridgeConfig(
    {
      bridge: { max_sessions: SESSIONS },
      workspace: workspaces,
      server: [fakeServer("fake", { responses: RESPONSES })],
    },
    dir,
  );
  const client = new RawMcpClient({ binary: bin, args: ["--config", config] });
  try {
    await client.initialize();
    await client.request("tools/list", {});
    const idle = statusMb(client.pid, "VmRSS");
    const status = await client.callOk("session_status", { start: true });
    const sessions = status.structured.sessions as {
      state: string;
      pids: { supervisor: number | null };
    }[];
    const states = sessions.map((s) => s.state);
    if (states.length !== SESSIONS || states.some((s) => s !== "ready")) {
      throw new Error(`expected ${SESSIONS} ready sessions, got ${states}`);
    }
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < SESSIONS; i++) {
        const ws = `ws${i}`;
        await client.callOk("hover", { workspace: ws, file: "a.fake", line: 1, column: 5 });
        await client.callOk("workspace_symbols", { workspace: ws, query: "symbol" });
        await client.callOk("diagnostics", { workspace: ws });
      }
    }
    const rss = statusMb(client.pid, "VmRSS");
    const hwm = statusMb(client.pid, "VmHWM");
    if (idle === null || rss === null || hwm === null) {
      throw new Error("cannot read the bridge's /proc status");
    }
    const each = (read: (pid: number) => number | null) =>
      sessions.flatMap((s) => {
        const mb = s.pids.supervisor === null ? null : read(s.pids.supervisor);
        return mb === null ? [] : [mb];
      });
    const supervisors = each((pid) => statusMb(pid, "VmRSS"));
    const supervisorsPss = each(pssMb);
    const pss = pssMb(client.pid);
    if (pss === null) throw new Error("cannot read the bridge's smaps_rollup");
    return { idle, rss, hwm, pss, supervisors, supervisorsPss };
  } finally {
    await client.close();
  }
}

/**
 * The floor any compiled Bun process starts from: an idle program built with the
 * project's build flags (build.ts), measured once it says it runs. Context for the
 * target, not part of it.
 */
async function runtimeFloorMb(dir: string): Promise<number> {
  const source = join(dir, "idle.ts");
  const out = join(dir, "idle");
  writeFileSync(source, 'process.stdout.write("up\\n");\nsetInterval(() => {}, 1 << 30);\n');
  const build = Bun.spawnSync(
    [
      process.execPath,
      "build",
      "--compile",
      "--minify",
      "--bytecode",
      "--format=esm",
      "--no-compile-autoload-dotenv",
      "--no-compile-autoload-bunfig",
      "--outfile",
      out,
      source,
    ],
    { stdout: "pipe", stderr: "pipe" },
  );
  if (!build.success) throw new Error(`cannot build the idle program: ${build.stderr}`);
  const proc = Bun.spawn([out], { stdin: "ignore", stdout: "pipe", stderr: "ignore" });
  try {
    const reader = proc.stdout.getReader();
    await reader.read(); // "up": the runtime and the program are loaded
    reader.releaseLock();
    const mb = statusMb(proc.pid, "VmRSS");
    if (mb === null) throw new Error("cannot read the idle program's VmRSS");
    return mb;
  } finally {
    proc.kill("SIGKILL");
  }
}

export async function runRss(opts: BenchOptions): Promise<Metric[]> {
  const bin = binary();
  const dir = makeTempDir("rss");
  try {
    const runs = count(opts, 5, 2);
    const idle: number[] = [];
    const rss: number[] = [];
    const hwm: number[] = [];
    const pss: number[] = [];
    const supervisors: number[] = [];
    const supervisorsPss: number[] = [];
    for (let i = 0; i < runs; i++) {
      const r = await oneBridge(bin, join(dir, `run${i}`));
      idle.push(r.idle);
      rss.push(r.rss);
      hwm.push(r.hwm);
      pss.push(r.pss);
      supervisors.push(...r.supervisors);
      supervisorsPss.push(...r.supervisorsPss);
    }
    const floor = await runtimeFloorMb(dir);
    return [
      metric(
        GROUP,
        "compiled Bun runtime floor (idle program, same build flags)",
        "MB",
        [floor],
        [],
        "what any compiled Bun process needs before theodolite's own code",
      ),
      metric(
        GROUP,
        "bridge VmRSS, idle (after initialize + tools/list)",
        "MB",
        idle,
        [],
        "the baseline the sessions add to",
      ),
      metric(GROUP, `bridge VmRSS, ${SESSIONS} live sessions`, "MB", rss, [
        { stat: "p95", max: 60 },
      ]),
      metric(GROUP, `bridge VmHWM (peak), ${SESSIONS} live sessions`, "MB", hwm),
      metric(
        GROUP,
        `bridge PSS, ${SESSIONS} live sessions`,
        "MB",
        pss,
        [],
        "pages shared with the supervisors (the same binary) counted in proportion",
      ),
      metric(
        GROUP,
        "supervisor VmRSS, each (not in the bridge's figure)",
        "MB",
        supervisors,
        [],
        "every session adds one supervisor process (SPEC §9.2) besides its server",
      ),
      metric(GROUP, "supervisor PSS, each", "MB", supervisorsPss),
    ];
  } finally {
    removeDir(dir);
  }
}

if (import.meta.main) {
  const { printMetrics } = await import("./report.ts");
  printMetrics(await runRss(parseOptions(process.argv)));
}
