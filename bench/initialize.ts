/**
 * Spawn → MCP `initialize` answered: the start-up cost an agent pays before its first
 * tool list. Timed with the raw NDJSON client (bench/mcp-raw.ts), from just before the
 * spawn to the parse of the reply; the request is written right after the spawn and
 * waits in the pipe until the bridge reads it. Sessions are lazy (SPEC §9.1), so no
 * server starts. Target ≤ 60 ms (median).
 */
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
import { type Metric, metric } from "./stats.ts";

const GROUP = "initialize";

export async function runInitialize(opts: BenchOptions): Promise<Metric[]> {
  const bin = binary();
  const dir = makeTempDir("init");
  try {
    const config = writeBridgeConfig(
      {
        workspace: [{ name: "w", root: dir, servers: ["fake"] }],
        server: [fakeServer("fake", {})],
      },
      dir,
    );
    const runs = count(opts, 30, 8);
    const toInitialize: number[] = [];
    const toServing: number[] = [];
    const toolsList: number[] = [];
    for (let i = 0; i < runs + 2; i++) {
      const client = new RawMcpClient({
        binary: bin,
        args: ["--config", config],
        env: { THEODOLITE_LOG_LEVEL: "info" },
      });
      try {
        const serving = client.stderrMatch(/serving MCP on stdio/);
        const reply = await client.initialize();
        const servingAt = await serving;
        const listStart = performance.now();
        const tools = await client.request("tools/list", {});
        if (tools.error) throw new Error(`tools/list failed: ${tools.error.message}`);
        // the first two runs warm the page cache and are not counted
        if (i >= 2) {
          toInitialize.push(reply.at - client.spawnedAt);
          toServing.push(servingAt - client.spawnedAt);
          toolsList.push(tools.at - listStart);
        }
      } finally {
        await client.close();
      }
    }
    return [
      metric(GROUP, "spawn → initialize answered", "ms", toInitialize, [
        { stat: "p50", max: 60, source: "brief" },
      ]),
      metric(
        GROUP,
        "spawn → 'serving MCP' logged",
        "ms",
        toServing,
        [],
        "part of the above: module load, config load and transport set-up, before the handshake",
      ),
      metric(GROUP, "tools/list round trip (after initialize)", "ms", toolsList),
    ];
  } finally {
    removeDir(dir);
  }
}

if (import.meta.main) {
  const { printMetrics } = await import("./report.ts");
  printMetrics(await runInitialize(parseOptions(process.argv)));
}
