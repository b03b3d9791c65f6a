/**
 * Reap latency after a bridge SIGKILL (SPEC §9.2): the bridge runs one session
 * of the fake server, which leaves two daemons behind — one in its process group, one
 * that left by setsid + double fork. After SIGKILL of the bridge, /proc is polled every
 * millisecond until the server, both daemons and the supervisor are all dead (zombies
 * count as dead). Target: p95 ≤ 100 ms (docs/PERFORMANCE.md#targets-and-verdicts).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type BenchOptions,
  binary,
  count,
  fakeServer,
  makeTempDir,
  parseOptions,
  pollUntil,
  removeDir,
  writeBridgeConfig,
} from "./common.ts";
import { RawMcpClient } from "./mcp-raw.ts";
import { Watched } from "./procfs.ts";
import { type Metric, metric } from "./stats.ts";

const GROUP = "reap";
/** SPEC §9.2: how often a supervisor checks that the bridge still exists. */
const SUPERVISOR_POLL_MS = 50;
/** SPEC §11 tree gate: everything must be gone within 5 s; past it the run failed. */
const GIVE_UP_MS = 5000;

interface ReapRun {
  /** ms from SIGKILL to the last of the tree dead, or GIVE_UP_MS */
  allGoneMs: number;
  survivors: string[];
}

function readPid(path: string): number | undefined {
  if (!existsSync(path)) return undefined;
  const pid = Number(readFileSync(path, "utf8"));
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

async function oneRun(
  bin: string,
  dir: string,
  run: string,
  extra: Record<string, unknown>,
): Promise<ReapRun> {
  const groupPidfile = join(dir, `group-${run}.pid`);
  const setsidPidfile = join(dir, `setsid-${run}.pid`);
  const serverPidfile = join(dir, `server-${run}.pid`);
  const config = writeBridgeConfig(
    {
      workspace: [{ name: "w", root: dir, servers: ["fake"] }],
      server: [
        fakeServer("fake", {
          pidfile_server: serverPidfile,
          daemons: [
            { kind: "group", pidfile: groupPidfile },
            { kind: "setsid", pidfile: setsidPidfile },
          ],
          ...extra,
        }),
      ],
    },
    dir,
  );
  const client = new RawMcpClient({ binary: bin, args: ["--config", config] });
  const watched: Watched[] = [];
  try {
    await client.initialize();
    const status = await client.callOk("session_status", { start: true });
    type Pids = { supervisor: number | null; server: number | null };
    const session = (status.structured.sessions as { state: string; pids: Pids }[])[0];
    if (session?.state !== "ready") {
      throw new Error(`session not ready: ${JSON.stringify(session)}`);
    }
    await pollUntil(
      () => [groupPidfile, setsidPidfile, serverPidfile].every((p) => readPid(p) !== undefined),
      10_000,
      "daemon pidfiles",
    );
    const { supervisor, server } = session.pids;
    if (supervisor === null || server === null || server !== readPid(serverPidfile)) {
      throw new Error(`session_status server pid ${server} != pidfile ${readPid(serverPidfile)}`);
    }
    watched.push(
      new Watched("supervisor", supervisor),
      new Watched("server", server),
      new Watched("group daemon", readPid(groupPidfile) as number),
      new Watched("setsid daemon", readPid(setsidPidfile) as number),
    );
    const notRunning = watched.filter((w) => !w.alive()).map((w) => w.label);
    if (notRunning.length > 0) throw new Error(`not running before the kill: ${notRunning}`);

    // A random phase against the supervisor's 50 ms bridge poll (SPEC §9.2): every run
    // follows the same steps, so without it the kill would land at nearly the same point
    // of the poll period each time and the runs would sample one point, not the period.
    // Not a wait for anything; nothing is pending here.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * SUPERVISOR_POLL_MS));
    client.kill();
    const killedAt = performance.now();
    let alive = watched;
    while (alive.length > 0 && performance.now() - killedAt < GIVE_UP_MS) {
      // 1 ms liveness poll: the resolution of this measurement
      await new Promise((resolve) => setTimeout(resolve, 1));
      alive = alive.filter((w) => w.alive());
    }
    const allGoneMs = alive.length === 0 ? performance.now() - killedAt : GIVE_UP_MS;
    return { allGoneMs, survivors: alive.map((w) => `${w.label} ${w.pid}`) };
  } finally {
    client.kill();
    for (const w of watched) w.kill();
  }
}

/**
 * Two servers: one that exits on stdin EOF (most do: the bridge's death closes the
 * server's stdin directly, the fastest path), and one that ignores it
 * (bash-language-server does), where the supervisor's 50 ms poll of the bridge must notice.
 */
const VARIANTS: { name: string; extra: Record<string, unknown> }[] = [
  { name: "bridge SIGKILL → whole tree dead", extra: {} },
  {
    name: "… server that ignores stdin EOF",
    extra: { ignore_stdin_eof: true },
  },
];

export async function runReap(opts: BenchOptions): Promise<Metric[]> {
  const bin = binary();
  const dir = makeTempDir("reap");
  try {
    const runs = count(opts, 20, 6);
    const metrics: Metric[] = [];
    for (const [v, variant] of VARIANTS.entries()) {
      const samples: number[] = [];
      const failures: string[] = [];
      for (let i = 0; i < runs; i++) {
        const r = await oneRun(bin, dir, `${v}-${i}`, variant.extra);
        samples.push(r.allGoneMs);
        if (r.survivors.length > 0) failures.push(`run ${i}: ${r.survivors.join(", ")}`);
      }
      const note =
        failures.length > 0
          ? `survived ${GIVE_UP_MS} ms (counted as ${GIVE_UP_MS} ms): ${failures.join("; ")}`
          : "server, group daemon, setsid double-fork daemon and supervisor all dead in every run";
      metrics.push(metric(GROUP, variant.name, "ms", samples, [{ stat: "p95", max: 100 }], note));
    }
    return metrics;
  } finally {
    removeDir(dir);
  }
}

if (import.meta.main) {
  const { printMetrics } = await import("./report.ts");
  printMetrics(await runReap(parseOptions(process.argv)));
}
