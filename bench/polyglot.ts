/**
 * The polyglot fixture served zero-config by one bridge (docs/PERFORMANCE.md, "Many languages
 * in one bridge"): the same calls as test/real/polyglot.test.ts — every language's hover or
 * document symbols, then its diagnostics — twice through the fixture, within max_sessions = 4.
 * Reported: discovery's time, each pass's wall time, the sessions started (epochs), the
 * bridge's VmRSS and VmHWM, and the whole process tree's resident memory (the bridge,
 * supervisors, servers and their children, summed) at its largest after any call. Not in
 * run.ts: it needs every server of .ci/setup-servers. Prints one JSON object.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { startBridge } from "../test/support/bridge.ts";
import { POLYGLOT_CALLS, polyglotPath } from "../test/support/polyglot.ts";
import { treeOf } from "../test/support/processes.ts";
import { ok } from "../test/support/real-bridge.ts";
import { copyFixture } from "../test/support/real-servers.ts";
import { statusMb } from "./procfs.ts";

function treeMb(pid: number): number {
  let sum = 0;
  for (const p of treeOf(pid)) sum += statusMb(p.pid, "VmRSS") ?? 0;
  return Math.round(sum);
}

const root = copyFixture("polyglot");
const bridge = await startBridge({ args: [], cwd: root, env: { PATH: polyglotPath() } });
try {
  const t0 = performance.now();
  const first = await ok(bridge, "session_status");
  const discoveryMs = Math.round(performance.now() - t0);
  const pid = (first.bridge as { pid: number }).pid;
  let treePeak = 0;
  let livePeak = 0;
  const passes: number[] = [];
  for (let pass = 0; pass < 2; pass++) {
    const start = performance.now();
    for (const call of POLYGLOT_CALLS) {
      await ok(bridge, call.read.tool, call.read.args);
      if (call.diagnostics) await ok(bridge, "diagnostics", { file: call.diagnostics });
      const s = await ok(bridge, "session_status");
      livePeak = Math.max(livePeak, (s.bridge as { live_sessions: number }).live_sessions);
      treePeak = Math.max(treePeak, treeMb(pid));
    }
    passes.push(Math.round(performance.now() - start));
  }
  const s = await ok(bridge, "session_status");
  const sessions = s.sessions as { server: string; epoch: number }[];
  console.log(
    JSON.stringify({
      languages: POLYGLOT_CALLS.length,
      servers: sessions.length,
      discovery_ms: discoveryMs,
      pass_ms: passes,
      starts: sessions.reduce((n, e) => n + e.epoch, 0),
      live_sessions_peak: livePeak,
      bridge_rss_mb: statusMb(pid, "VmRSS"),
      bridge_hwm_mb: statusMb(pid, "VmHWM"),
      tree_rss_peak_mb: treePeak,
      tree_rss_now_mb: treeMb(pid),
      root: join(root, "."),
    }),
  );
} finally {
  await bridge.close();
  rmSync(root, { recursive: true, force: true });
}
