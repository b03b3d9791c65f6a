/**
 * Bridge CPU time per call: the bridge process's own CPU (every thread, from
 * /proc/PID/task/TID/schedstat, nanoseconds) divided by the number of calls, over a few
 * thousand sequential calls through the fake server. Unlike wall-clock latency this barely
 * moves when other processes share the cores, so it can compare two builds on a busy
 * machine. Cases: `session_status` (no server: the MCP path alone), `hover` (a small
 * answer), `diagnostics` of one file with 20 (a small answer with its snapshot),
 * `references` of 601 locations and `workspace_symbols` of 200 (large answers).
 *
 *   bun bench/cpu.ts [--quick] [--only NAME] [--profile DIR]
 *
 * THEODOLITE_BENCH_BINARY=/abs/path measures another build; `--profile DIR` has the bridge
 * write a CPU profile (`--cpu-prof`, Chrome format) into DIR when it exits.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  binary,
  fakeServer,
  makeTempDir,
  parseOptions,
  removeDir,
  writeBridgeConfig,
} from "./common.ts";
import { RawMcpClient } from "./mcp-raw.ts";
import { cpuMs } from "./procfs.ts";
import { percentile } from "./stats.ts";

/** About the size of clangd's hover for a function (markdown, ~400 bytes). */
const HOVER = {
  contents: {
    kind: "markdown",
    value: `### function \`manhattan\`\n\n---\n→ \`int\`\nParameters:\n- \`struct point a\`\n- \`struct point b\`\n\n${"Sum of the absolute differences of the coordinates. ".repeat(5)}\n\n---\n\`\`\`cpp\nint manhattan(struct point a, struct point b)\n\`\`\``,
  },
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } },
};

/** Published for a.fake at every sync: 20 diagnostics on its first lines. */
const PUBLISHED = Array.from({ length: 20 }, (_, i) => ({
  message: `unknown name \`gamma${i}\``,
  severity: 1 + (i % 2),
  line: i,
  character: 12,
  end_character: 17,
  code: `E${i}`,
  source: "fake",
}));

interface CpuCase {
  name: string;
  tool: string;
  args: Record<string, unknown>;
}

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  const calls = opts.quick ? 500 : 3000;
  const dir = makeTempDir("cpu");
  const root = join(dir, "ws");
  mkdirSync(root);
  writeFileSync(join(root, "a.fake"), "alpha beta gamma delta epsilon zeta\n".repeat(1000));
  const config = writeBridgeConfig(
    {
      workspace: [{ name: "w", root, servers: ["fake"] }],
      server: [
        fakeServer("fake", {
          huge: { "textDocument/references": 601, "textDocument/documentSymbol": 200 },
          responses: { "textDocument/hover": HOVER },
          publish_on_sync: PUBLISHED,
        }),
      ],
    },
    dir,
  );
  const at = process.argv.indexOf("--profile");
  const profileDir = at >= 0 ? process.argv[at + 1] : undefined;
  const client = new RawMcpClient({
    binary: binary(),
    args: ["--config", config],
    // a compiled Bun program honours BUN_OPTIONS (its supervisors do not get it, src/process/self.ts)
    ...(profileDir
      ? {
          env: {
            BUN_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir} --cpu-prof-interval=100`,
          },
        }
      : {}),
  });
  await client.initialize();
  await client.callOk("session_status", { start: true });
  const cases: CpuCase[] = [
    { name: "session_status", tool: "session_status", args: {} },
    { name: "hover", tool: "hover", args: { file: "a.fake", line: 1, column: 1 } },
    { name: "diagnostics (20)", tool: "diagnostics", args: { file: "a.fake" } },
    {
      name: "references (601)",
      tool: "references",
      args: { file: "a.fake", line: 1, column: 1, limit: 200 },
    },
    { name: "document_symbols (200)", tool: "document_symbols", args: { file: "a.fake" } },
  ];
  try {
    console.log(`bridge CPU per call, ${calls} calls each (after ${calls / 5} warm-up calls)`);
    const only = process.argv.indexOf("--only");
    const selected = only >= 0 ? cases.filter((c) => c.tool === process.argv[only + 1]) : cases;
    for (const c of selected) {
      for (let i = 0; i < calls / 5; i++) await client.callOk(c.tool, c.args);
      const wall: number[] = [];
      const before = cpuMs(client.pid) ?? Number.NaN;
      for (let i = 0; i < calls; i++) wall.push((await client.callOk(c.tool, c.args)).ms);
      const cpu = ((cpuMs(client.pid) ?? Number.NaN) - before) / calls;
      console.log(
        `${c.name.padEnd(20)} cpu ${cpu.toFixed(3)} ms/call   wall p50 ${percentile(wall, 50).toFixed(3)} ms  p95 ${percentile(wall, 95).toFixed(3)} ms`,
      );
    }
  } finally {
    await client.close();
    removeDir(dir);
  }
}

await main();
