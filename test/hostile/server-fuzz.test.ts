/**
 * The hostile-server fuzz (SPEC §8), beside the client fuzz (fuzz.test.ts): seeded server
 * lives (test/fake-server/hostile-plan.ts) — messages cut at random, extra and lowercase
 * headers, floods of requests and notifications of every size, unasked and deeply nested
 * responses, wide, many-keyed and deep JSON in notifications, `_meta` and `data` fields,
 * server requests and answers, stderr without end, hopping daemons, and often a last blow:
 * a header without end, a 4 GB Content-Length, a body that is not JSON, nests 100,000 deep
 * or parses past the bounds, a 100 MiB answer, a closed stdout, an exit, a signal. Each
 * bridge plays LIVES lives in a row (session_restart between them) while the test pings and
 * calls tools. After every life: the bridge alive, every ping within 2 s, every call a
 * result or a typed error, the life's peak RSS under 300 MB (each life's is printed), and
 * nothing left of the life before; after the last, a clean exit and nothing left at all.
 * Fixed seeds: a failure reproduces (the server logs its actions).
 */
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ERROR_CODES } from "../../src/errors.ts";
import { fuzzActions, hopTag, lifeSeed, lifeTag } from "../fake-server/hostile-plan.ts";
import { writeConfig } from "../support/bridge.ts";
import { Prng } from "../support/prng.ts";
import { gone, livePidsTagged } from "../support/processes.ts";
import { RawBridge } from "../support/raw-bridge.ts";
import { rounds } from "../support/rounds.ts";
import { tempDir } from "../support/temp-dirs.ts";
import { waitFor, within } from "../support/wait.ts";
import {
  cleanupAfterEach,
  hostileServer,
  PING_BOUND_MS,
  peakRssMb,
  RSS_BOUND_MB,
  resetPeakRss,
  sessionEntry,
} from "./bounds-harness.ts";

const SEED = 0x5e_4f_02_2a;
const BRIDGES = rounds(3, 8);
const LIVES = 8;
/** How long a life is watched at most once its actions began (most end far sooner). */
const LIFE_MS = 3000;
/** After its end, nothing of a tree is alive this long after (the must-show bound). */
const GONE_MS = 2000;
const CALL_BOUND_MS = 15_000;

const { started, tags } = cleanupAfterEach();

const CALLS: [string, Record<string, unknown>][] = [
  ["hover", { file: "a.fake", line: 1, column: 1 }],
  ["definition", { file: "a.fake", line: 1, column: 2 }],
  ["document_symbols", { file: "a.fake" }],
  ["workspace_symbols", { query: "alpha" }],
  ["diagnostics", {}],
  ["session_status", {}],
];
const CODES = new Set<string>(ERROR_CODES);

interface Tree {
  supervisor: number | null;
  server: number | null;
  tag: string;
}

/** The life's tree is gone: supervisor, server and every daemon it started. */
async function expectGone(t: Tree, what: string): Promise<void> {
  await waitFor(
    () =>
      (t.supervisor === null || gone(t.supervisor)) &&
      (t.server === null || gone(t.server)) &&
      livePidsTagged(t.tag).length === 0,
    GONE_MS,
    { what: `${what}: nothing left of the tree` },
  );
}

async function call(bridge: RawBridge, name: string, args: unknown, what: string): Promise<string> {
  const answer = await bridge.call(name, args, CALL_BOUND_MS);
  if (answer.response.error)
    throw new Error(`${what}: a JSON-RPC error ${JSON.stringify(answer.response.error)}`);
  if (!answer.isError) return "ok";
  const code = String(answer.code);
  if (!CODES.has(code) || code === "Internal") {
    throw new Error(`${what}: untyped error ${JSON.stringify(answer.structured).slice(0, 400)}`);
  }
  return code;
}

/** The n-th life's actions have ended (the marker's `end` lines count lives), or its server is gone. */
function lifeOver(marker: string, n: number, t: Tree): boolean {
  const ends = readFileSync(marker, { encoding: "utf8", flag: "a+" }).split("\n");
  return (
    ends.filter((l) => l.startsWith("end")).length > n || (t.server !== null && gone(t.server))
  );
}

test(`hostile-server fuzz: ${BRIDGES} bridges × ${LIVES} seeded server lives`, async () => {
  const outcomes: Record<string, number> = {};
  /** what the servers did, from the same seeds (the plan is pure) */
  const played: Record<string, number> = {};
  let maxPing = 0;
  /** each bridge's lives' peak resident sizes, in MB */
  const peaks: number[][] = [];
  for (let b = 0; b < BRIDGES; b++) {
    const root = tempDir("theodolite-sfuzz-");
    writeFileSync(join(root, "a.fake"), "alpha beta\nsecond line\n");
    const dir = tempDir("theodolite-sfuzz-state-");
    const marker = join(dir, "marker");
    const base = lifeSeed(SEED, b * 1000);
    const tag = `theodolite-sfuzz-${process.pid}-${b}-${Date.now()}`;
    const plan = { runs_file: join(dir, "runs"), seed: base, tag, root, marker };
    const config = writeConfig({
      bridge: { shutdown_grace_ms: 300, request_timeout_ms: 2000, ready_timeout_ms: 10_000 },
      workspace: [{ name: "w", root, servers: ["hostile"] }],
      server: [hostileServer("hostile", plan)],
    });
    const bridge = await RawBridge.start(config);
    started.add(bridge.pid);
    const r = new Prng(base);
    let previous: Tree | undefined;
    peaks.push([]);
    for (let n = 0; n < LIVES; n++) {
      const what = `bridge ${b} life ${n} (seed ${lifeSeed(base, n)})`;
      const startCode = await call(
        bridge,
        n === 0 ? "session_status" : "session_restart",
        n === 0 ? { start: true } : {},
        what,
      );
      outcomes[`start ${startCode}`] = (outcomes[`start ${startCode}`] ?? 0) + 1;
      if (previous !== undefined) await expectGone(previous, `${what}, the life before`);
      const s = await sessionEntry(bridge);
      const pids = s.pids as { supervisor: number | null; server: number | null };
      for (const pid of [pids.supervisor, pids.server]) if (pid !== null) started.add(pid);
      const tree: Tree = { ...pids, tag: hopTag(lifeTag(tag, n)) };
      tags.push(tree.tag);
      resetPeakRss(bridge.pid);
      const deadline = Date.now() + LIFE_MS;
      // calls and pings while the life plays, then pings until it is over
      do {
        const [name, args] = r.pick(CALLS);
        const code = await call(bridge, name, args, `${what} ${name}`);
        outcomes[code] = (outcomes[code] ?? 0) + 1;
        maxPing = Math.max(maxPing, await bridge.ping(PING_BOUND_MS));
      } while (!lifeOver(marker, n, tree) && Date.now() < deadline);
      expect(bridge.alive(), what).toBe(true);
      peaks[b]?.push(Math.round(peakRssMb(bridge.pid)));
      previous = tree;
      for (const a of fuzzActions(lifeSeed(base, n), root, lifeTag(tag, n))) {
        const kind =
          a.do === "flood"
            ? `flood ${a.kind}`
            : a.do === "shaped"
              ? `shaped ${a.shape} ${a.into}`
              : a.do;
        played[kind] = (played[kind] ?? 0) + 1;
      }
    }
    bridge.endStdin();
    expect(await within(bridge.exited, 10_000, `bridge ${b} to exit`)).toBe(0);
    if (previous !== undefined) await expectGone(previous, `bridge ${b} after its exit`);
    expect(bridge.notJsonRpc).toEqual([]);
  }
  const all = peaks.flat();
  const over = all.filter((mb) => mb >= RSS_BOUND_MB).length;
  console.log(
    `[hostile] server fuzz seed ${SEED}: ${BRIDGES * LIVES} server lives, 0 bridge deaths, 0 leftovers; slowest ping ${maxPing.toFixed(0)} ms, peak RSS ${Math.max(...all)} MB; calls ${JSON.stringify(outcomes)}; actions ${JSON.stringify(played)}`,
  );
  console.log(
    `[hostile] peak RSS per life (MB, bound ${RSS_BOUND_MB}, ${over} over): ${peaks.map((p, b) => `bridge ${b}: ${p.join(" ")}`).join(" | ")}`,
  );
  expect(over).toBe(0);
}, 180_000);
