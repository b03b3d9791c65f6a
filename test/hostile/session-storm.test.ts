/**
 * `max_sessions` is a hard limit on server trees (SPEC §9.1): bursts of concurrent first
 * calls to more servers than the limit, with servers that are slow to stop, while the
 * test samples `/proc` throughout and counts the bridge's supervisors (one per tree).
 * Every call gets its answer or SessionLimit; no sample ever sees more trees than allowed.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDead, scanProcs } from "../../src/process/proctree.ts";
import { fakeServer, writeConfig } from "../support/bridge.ts";
import { Prng } from "../support/prng.ts";
import { closeRawBridges, RawBridge } from "../support/raw-bridge.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";

afterEach(async () => {
  await closeRawBridges();
  removeTempDirs();
});

/** Live supervisors of this bridge: one per server tree. */
function trees(bridgePid: number): number {
  let n = 0;
  for (const p of scanProcs()) {
    if (p.ppid !== bridgePid || isDead(p)) continue;
    try {
      if (readFileSync(`/proc/${p.pid}/cmdline`, "utf8").includes("--supervise")) n++;
    } catch {
      // gone meanwhile
    }
  }
  return n;
}

const SERVERS = ["s1", "s2", "s3", "s4", "s5", "s6"];

async function storm(maxSessions: number, rounds: number, seed: number) {
  const ws = realpathSync(tempDir("theodolite-hostile-storm-"));
  writeFileSync(join(ws, "a.fake"), "fn_a\n");
  const config = writeConfig({
    bridge: { max_sessions: maxSessions, shutdown_grace_ms: 200 },
    workspace: [{ name: "ws", root: ws, servers: SERVERS }],
    // half the servers ignore `shutdown`: their trees linger in `stopping` for the grace
    server: SERVERS.map((name, i) =>
      fakeServer(name, { symbols_from_text: "fn_\\w+", hang_on_shutdown: i % 2 === 0 }),
    ),
  });
  const bridge = await RawBridge.start(config);
  let maxTrees = 0;
  let samples = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      maxTrees = Math.max(maxTrees, trees(bridge.pid));
      samples++;
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  const r = new Prng(seed);
  const outcomes: Record<string, number> = {};
  try {
    for (let round = 0; round < rounds; round++) {
      const burst = Array.from({ length: r.int(3, 8) }, () =>
        bridge.call("document_symbols", { server: r.pick(SERVERS), file: "a.fake" }, 15_000),
      );
      for (const answer of await Promise.all(burst)) {
        const outcome = answer.isError ? String(answer.code) : "ok";
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      }
    }
  } finally {
    sampling = false;
    await sampler;
  }
  console.log(
    `[hostile] storm max_sessions=${maxSessions}: ${JSON.stringify({ rounds, samples, maxTrees, maxMs: Math.round(bridge.maxMs), ...outcomes })}`,
  );
  return { maxTrees, samples, outcomes, bridge };
}

describe("max_sessions under concurrent first calls (SPEC §9.1)", () => {
  for (const [max, rounds] of [
    [1, 8],
    [2, 10],
    [4, 8],
  ] as const) {
    test(`max_sessions = ${max}: never more trees than that`, async () => {
      const { maxTrees, samples, outcomes, bridge } = await storm(max, rounds, 1000 + max);
      expect(samples).toBeGreaterThan(rounds);
      expect(maxTrees).toBeLessThanOrEqual(max);
      expect(maxTrees).toBeGreaterThan(0);
      expect(Object.keys(outcomes).every((k) => k === "ok" || k === "SessionLimit")).toBe(true);
      expect(outcomes.ok ?? 0).toBeGreaterThan(0);
      expect(bridge.notJsonRpc).toEqual([]);
    }, 60_000);
  }
});
