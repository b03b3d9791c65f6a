/**
 * Bridge memory while paging every symbol of a 10 MB C file (target ≤ 100 MB after, see
 * docs/PERFORMANCE.md):
 * clangd on a generated file of ~13,400 top-level symbols, `document_symbols` called with
 * `limit` 1000 from offset 0 until no `next_offset` is left, then VmRSS right after and
 * the lowest over 2 s of idleness, VmHWM (peak), and PSS of the bridge and its
 * supervisor. Every page is a full documentSymbol answer from the server (the bridge keeps
 * no answer between calls), so this also shows what one very large answer costs.
 */
import { join } from "node:path";
import { serverTable } from "../src/config/toml.ts";
import { findClangd } from "../test/support/real-servers.ts";
import {
  type BenchOptions,
  binary,
  makeTempDir,
  parseOptions,
  removeDir,
  writeBridgeConfig,
} from "./common.ts";
import { generateLargeCFile } from "./gen-c-fixture.ts";
import { RawMcpClient } from "./mcp-raw.ts";
import { pssMb, statusMb } from "./procfs.ts";
import { type Metric, metric } from "./stats.ts";

const GROUP = "paging";
const FILE_BYTES = 10 * 1024 * 1024;
/** a page size over the default max_limit (raised in the config) keeps the run to ~14 calls */
const LIMIT = 1000;
const IDLE_MS = 2000;

export async function runPaging(_opts: BenchOptions): Promise<Metric[]> {
  const clangd = await findClangd();
  if (!clangd) return [metric(GROUP, "all", "MB", null, [], "not measured: clangd not found")];
  const dir = makeTempDir("paging");
  const root = join(dir, "ws");
  const { file, symbols } = generateLargeCFile(root, FILE_BYTES);
  const config = writeBridgeConfig(
    {
      bridge: {
        max_file_bytes: 2 * FILE_BYTES,
        ready_timeout_ms: 300_000,
        request_timeout_ms: 300_000,
        max_limit: LIMIT,
        max_result_bytes: 4 * 1024 * 1024,
      },
      workspace: [{ name: "w", root, servers: [clangd.config.name] }],
      server: [serverTable(clangd.config)],
    },
    dir,
  );
  const client = new RawMcpClient({ binary: binary(), args: ["--config", config] });
  try {
    await client.initialize();
    await client.callOk("session_status", { start: true });
    const before = statusMb(client.pid, "VmRSS");
    const times: number[] = [];
    let offset: number | undefined = 0;
    let seen = 0;
    while (offset !== undefined) {
      const r = await client.callOk("document_symbols", { file, limit: LIMIT, offset });
      times.push(r.ms);
      seen += (r.structured.symbols as unknown[]).length;
      offset = r.structured.next_offset as number | undefined;
    }
    const after = statusMb(client.pid, "VmRSS");
    const peak = statusMb(client.pid, "VmHWM");
    // the runtime returns freed pages to the system in the background: the smallest VmRSS
    // over the next IDLE_MS of idleness is what the bridge keeps
    let idle = after;
    const until = performance.now() + IDLE_MS;
    while (performance.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const now = statusMb(client.pid, "VmRSS");
      if (now !== null && (idle === null || now < idle)) idle = now;
    }
    if (seen !== symbols) throw new Error(`paged ${seen} top-level symbols, expected ${symbols}`);
    const status = await client.callOk("session_status", {});
    const supervisor = (status.structured.sessions as { pids: { supervisor: number | null } }[])[0]
      ?.pids.supervisor;
    const mb = (what: string, v: number | null, target?: number) =>
      v === null
        ? []
        : [
            metric(
              GROUP,
              what,
              "MB",
              [v],
              target === undefined ? [] : [{ stat: "p50", max: target }],
            ),
          ];
    return [
      metric(GROUP, `document_symbols page (limit ${LIMIT}) of a 10 MB C file`, "ms", times),
      ...mb("bridge VmRSS before paging", before),
      ...mb(`bridge VmRSS right after paging ${seen} symbols`, after, 100),
      ...mb(`bridge VmRSS after ${IDLE_MS / 1000} s idle`, idle, 100),
      ...mb("bridge VmHWM (peak) while paging", peak),
      ...mb("bridge PSS after paging", pssMb(client.pid)),
      ...(supervisor ? mb("supervisor PSS after paging", pssMb(supervisor)) : []),
    ];
  } finally {
    await client.close();
    removeDir(dir);
  }
}

if (import.meta.main) {
  const { printMetrics } = await import("./report.ts");
  printMetrics(await runPaging(parseOptions(process.argv)));
}
