/**
 * What the bound tests (SPEC §8) share: the compiled bridge over one workspace and the
 * hostile server (test/fake-server/hostile-ls.ts) with a plan, `ping` sent back to back
 * while an attack runs — each must come back within PING_BOUND_MS — and the bridge's
 * peak resident size, which must stay under RSS_BOUND_MB. Each test prints its figures.
 */
import { afterAll, afterEach, expect } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HostilePlan } from "../fake-server/hostile-plan.ts";
import { closeAllBridges, fakeServer, REPO, writeConfig } from "../support/bridge.ts";
import { gone, killLeft, killTagged } from "../support/processes.ts";
import { closeRawBridges, RawBridge } from "../support/raw-bridge.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";
import { waitFor } from "../support/wait.ts";

export const HOSTILE_LS = join(REPO, "test", "fake-server", "hostile-ls.ts");
/** The must-show bounds: every ping during an attack within 2 s, the bridge under 300 MB. */
export const PING_BOUND_MS = 2000;
export const RSS_BOUND_MB = 300;
export const MIB = 1 << 20;
/**
 * The stop tests (SPEC §9.2): the `shutdown_grace_ms` they configure; the bridge's exit comes
 * within it plus BOUND_MS after stdin EOF, and nothing of a tree is alive BOUND_MS after the
 * bridge's death.
 */
export const GRACE_MS = 500;
export const BOUND_MS = 2000;
/** A start on a loaded machine (a bound, not a wait). */
export const START_MS = 30_000;

/** A [[server]] table for the hostile server playing `plan` (the fake server's, but the script). */
export function hostileServer(name: string, plan: HostilePlan): Record<string, unknown> {
  return { ...fakeServer(name), args: [HOSTILE_LS, "--plan", JSON.stringify(plan)] };
}

/**
 * What a test file registers for cleanup: the pids it started and the tags of the daemons
 * its servers started; after each test every bridge (raw or SDK) is closed and what is left
 * is killed.
 */
export function cleanupAfterEach(): { started: Set<number>; tags: string[] } {
  const started = new Set<number>();
  const tags: string[] = [];
  afterEach(async () => {
    await closeRawBridges();
    await closeAllBridges();
    killLeft(started);
    for (const tag of tags.splice(0)) killTagged(tag);
  });
  afterAll(removeTempDirs);
  return { started, tags };
}

export interface Hostile {
  bridge: RawBridge;
  root: string;
  marker: string;
}

/** A bridge on a workspace with `a.fake`, served by the hostile server playing `plan`. */
export async function hostileBridge(
  plan: HostilePlan,
  bridgeKeys: Record<string, unknown> = {},
  serverKeys: Record<string, unknown> = {},
): Promise<Hostile> {
  const root = tempDir("theodolite-bounds-");
  writeFileSync(join(root, "a.fake"), "alpha beta\nsecond line\n");
  const marker = join(tempDir("theodolite-marker-"), "marker");
  const config = writeConfig({
    bridge: { shutdown_grace_ms: 500, ...bridgeKeys },
    workspace: [{ name: "w", root, servers: ["hostile"] }],
    server: [{ ...hostileServer("hostile", { ...plan, marker, root }), ...serverKeys }],
  });
  return { bridge: await RawBridge.start(config), root, marker };
}

export interface TreePids {
  supervisor: number | null;
  server: number | null;
}

/**
 * A bridge whose session is ready, then the attack: the server plays it when a `hover`
 * arrives (sent here, its answer in `hover`), so the test is pinging while it runs. The
 * tree's pids go to `started` for cleanup.
 */
export async function startedHostile(
  started: Set<number>,
  plan: HostilePlan,
  bridgeKeys: Record<string, unknown> = {},
  serverKeys: Record<string, unknown> = {},
) {
  const h = await hostileBridge({ on: "textDocument/hover", ...plan }, bridgeKeys, serverKeys);
  started.add(h.bridge.pid);
  await h.bridge.call("session_status", { start: true }, 60_000);
  const s = await sessionEntry(h.bridge);
  expect(s.state).toBe("ready");
  const pids = s.pids as TreePids;
  for (const pid of [pids.supervisor, pids.server]) if (pid !== null) started.add(pid);
  const hover = h.bridge.call("hover", { file: "a.fake", line: 1, column: 1 }, 60_000);
  return { h, pids, hover };
}

/** The attack's actions have all run (the marker's `end`). */
export const ended = (h: Hostile) => () => attackTimes(h.marker).end !== undefined;

/** The session's server is gone (the bridge stopped it). */
export const stopped = (pids: TreePids) => () => pids.server === null || gone(pids.server);

/** A session the bridge stopped: dead, its tree gone, and the next call saying why. */
export async function expectBroken(h: Hostile, pids: TreePids, why: string): Promise<void> {
  await waitFor(async () => (await sessionEntry(h.bridge)).state === "dead", 30_000, {
    what: "the session to be dead",
  });
  for (const pid of [pids.supervisor, pids.server]) if (pid !== null) expect(gone(pid)).toBe(true);
  const call = await h.bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
  expect(call.code).toBe("SessionDead");
  expect(String(call.structured.message)).toContain(why);
  expect(h.bridge.alive()).toBe(true);
}

/** The attack's `begin` and `end` times from the marker (Date.now() of the server). */
export function attackTimes(marker: string): { begin?: number; end?: number } {
  if (!existsSync(marker)) return {};
  const out: { begin?: number; end?: number } = {};
  for (const line of readFileSync(marker, "utf8").split("\n")) {
    const [what, at] = line.split(" ");
    if (what === "begin" || what === "end") out[what] = Number(at);
  }
  return out;
}

export interface Pinged {
  pings: number;
  /** pings sent while the attack ran (between the marker's begin and end, or until `done`) */
  during: number;
  maxMs: number;
}

/**
 * `ping` back to back until `done()` holds (checked between pings); each must be answered
 * within PING_BOUND_MS (`RawBridge.ping` rejects otherwise). A ping counts as "during" when
 * sent after the attack began and before it ended (an attack that never ends — the bridge
 * stopped its server — runs until `done`).
 */
export async function pingThrough(
  h: Hostile,
  done: () => boolean | Promise<boolean>,
  deadlineMs = 120_000,
): Promise<Pinged> {
  const r: Pinged = { pings: 0, during: 0, maxMs: 0 };
  const deadline = Date.now() + deadlineMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error("the attack did not end in time");
    const sent = Date.now();
    const ms = await h.bridge.ping(PING_BOUND_MS);
    const t = attackTimes(h.marker);
    if (t.begin !== undefined && sent >= t.begin && (t.end === undefined || sent <= t.end)) {
      r.during += 1;
    }
    r.pings += 1;
    r.maxMs = Math.max(r.maxMs, ms);
  }
  return r;
}

/** The bridge's peak resident size so far, in MB (VmHWM). */
export function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(m?.[1]) / 1024;
}

/** The bridge's resident size now, in MB (VmRSS). */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(m?.[1]) / 1024;
}

/** Start counting the peak afresh from now (Linux: 5 into clear_refs resets VmHWM). */
export function resetPeakRss(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
}

/** One line per case, for the report: ping and memory figures. */
export function report(label: string, p: Pinged, pid: number, extra = ""): void {
  console.log(
    `[bounds] ${label}: ${p.pings} pings (${p.during} during the attack), slowest ${p.maxMs.toFixed(0)} ms; bridge peak RSS ${peakRssMb(pid).toFixed(0)} MB${extra}`,
  );
}

/**
 * An attack the session absorbs, pinged through to its end (some pings while it ran) and
 * reported, the bridge under the memory bound: the bridge, the tree's pids, the hover.
 */
export async function absorbedAttack(
  started: Set<number>,
  plan: HostilePlan,
  label: string,
  bridgeKeys: Record<string, unknown> = {},
) {
  const attack = await startedHostile(started, plan, bridgeKeys);
  const p = await pingThrough(attack.h, ended(attack.h));
  report(label, p, attack.h.bridge.pid);
  expect(p.during).toBeGreaterThan(0);
  expect(peakRssMb(attack.h.bridge.pid)).toBeLessThan(RSS_BOUND_MB);
  return attack;
}

/**
 * An attack that breaks the session: pinged through until the server is stopped, reported,
 * under the memory bound, then the session broken for `why` (expectBroken).
 */
export async function attackAndBreak(
  started: Set<number>,
  plan: HostilePlan,
  label: string,
  why: string,
): Promise<void> {
  const { h, pids } = await startedHostile(started, plan);
  const p = await pingThrough(h, stopped(pids));
  report(label, p, h.bridge.pid);
  expect(peakRssMb(h.bridge.pid)).toBeLessThan(RSS_BOUND_MB);
  await expectBroken(h, pids, why);
}

/** The one session's entry of session_status. */
export async function sessionEntry(bridge: RawBridge): Promise<Record<string, unknown>> {
  const st = await bridge.call("session_status", {}, 20_000);
  if (st.isError) throw new Error(`session_status failed: ${JSON.stringify(st.structured)}`);
  return (st.structured.sessions as Record<string, unknown>[])[0] as Record<string, unknown>;
}
