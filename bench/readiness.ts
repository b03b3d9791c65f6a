/**
 * Readiness detection latency (SPEC §3.3; docs/PERFORMANCE.md): how long after a server's last
 * readiness event the bridge reports the session ready. The server is bench/progress-ls.ts
 * (the test fake server has no `$/progress`): the bridge's warmup didOpen makes it begin a
 * "bench indexing" task; once session_status shows that task active, the benchmark sends
 * the server SIGUSR1, which ends the task and records the wall-clock time it sent the end.
 * The metric is from that time to the arrival of the pending `session_status {start:
 * true}` reply — the bridge's detection plus one MCP reply. For scale, the round trip of a
 * plain session_status call on the same bridge is reported too. No target was given.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type BenchOptions,
  binary,
  count,
  makeTempDir,
  parseOptions,
  pollUntil,
  removeDir,
  writeBridgeConfig,
} from "./common.ts";
import { RawMcpClient } from "./mcp-raw.ts";
import { Watched } from "./procfs.ts";
import { PROGRESS_TITLE } from "./progress-ls.ts";
import { type Metric, metric } from "./stats.ts";

const GROUP = "readiness";
const PROGRESS_LS = join(import.meta.dir, "progress-ls.ts");

interface SessionView {
  state: string;
  progress: { title: string }[];
}

function sessionOf(structured: Record<string, unknown>): SessionView {
  const s = (structured.sessions as SessionView[] | undefined)?.[0];
  if (!s) throw new Error("session_status listed no session");
  return s;
}

async function oneRun(
  bin: string,
  dir: string,
  run: number,
): Promise<{ detection: number; roundTrip: number }> {
  const stamp = join(dir, `stamp-${run}`);
  const marker = join(dir, `marker-${run}`);
  const config = writeBridgeConfig(
    {
      workspace: [{ name: "w", root: dir, servers: ["progress"] }],
      server: [
        {
          name: "progress",
          command: process.execPath,
          args: [PROGRESS_LS, "--stamp", stamp, "--marker", marker],
          version: Bun.version,
          languages: ["fake"],
          extensions: { fake: "fake" },
          roles: ["semantics"],
          ready: {
            warmup_open: "*.fake",
            progress: [`^${PROGRESS_TITLE}$`],
            progress_required: true,
          },
        },
      ],
    },
    dir,
  );
  const client = new RawMcpClient({ binary: bin, args: ["--config", config] });
  let server: Watched | undefined;
  try {
    await client.initialize();
    const starting = client.callOk("session_status", { start: true });
    await pollUntil(() => existsSync(marker), 30_000, "the server to begin its progress");
    server = new Watched("progress-ls", Number(readFileSync(marker, "utf8")));
    // The bridge must have seen the begin before the end is sent (a 5 ms liveness poll).
    const deadline = performance.now() + 30_000;
    for (;;) {
      const s = sessionOf((await client.callOk("session_status", {})).structured);
      if (s.progress.some((p) => p.title === PROGRESS_TITLE)) break;
      if (s.state === "dead") throw new Error("session died while waiting for progress");
      if (performance.now() > deadline) throw new Error("the bridge never showed the progress");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    process.kill(server.pid, "SIGUSR1");
    const ready = await starting;
    const replyAt = performance.timeOrigin + ready.at;
    await pollUntil(() => existsSync(stamp), 10_000, "the server's end stamp");
    const endSent = Number(readFileSync(stamp, "utf8"));
    if (sessionOf(ready.structured).state !== "ready") {
      throw new Error(`not ready: ${JSON.stringify(ready.structured)}`);
    }
    const rtt: number[] = [];
    for (let i = 0; i < 5; i++) rtt.push((await client.callOk("session_status", {})).ms);
    rtt.sort((a, b) => a - b);
    return { detection: replyAt - endSent, roundTrip: rtt[2] as number };
  } finally {
    await client.close();
    server?.kill();
  }
}

export async function runReadiness(opts: BenchOptions): Promise<Metric[]> {
  const bin = binary();
  const dir = makeTempDir("readiness");
  try {
    writeFileSync(join(dir, "a.fake"), "warm me up\n");
    const runs = count(opts, 20, 6);
    const detection: number[] = [];
    const roundTrip: number[] = [];
    for (let i = 0; i < runs; i++) {
      const r = await oneRun(bin, dir, i);
      detection.push(r.detection);
      roundTrip.push(r.roundTrip);
    }
    return [
      metric(
        GROUP,
        "last progress end → session_status reply 'ready'",
        "ms",
        detection,
        [],
        "includes one MCP reply; compare with the plain round trip below",
      ),
      metric(GROUP, "plain session_status round trip (same bridge, for scale)", "ms", roundTrip),
    ];
  } finally {
    removeDir(dir);
  }
}

if (import.meta.main) {
  const { printMetrics } = await import("./report.ts");
  printMetrics(await runReadiness(parseOptions(process.argv)));
}
