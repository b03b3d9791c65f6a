/**
 * A large apply through the compiled bridge (SPEC §7.4, §9.2, §9.3): a code action that
 * edits FILES files of SIZE bytes each. The apply's own memory does not grow with the
 * files it touches (each is planned, checked and prepared through one read buffer, its text
 * let go before the next), a status call sent while it runs is answered within
 * PING_BOUND_MS (a turn of the event loop between files), and stdin closed while it
 * prepares its files ends the bridge within the exit bound with every file old or every
 * file new, no temp file and no record. Each test prints its figures.
 */
import { afterAll, afterEach, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FLOOD_BYTES } from "../../src/collector.ts";
import { editEverywhereConfig, FakeProbe, lspRange, workspace } from "../fake-server/harness.ts";
import { closeRawBridges, RawBridge } from "../support/raw-bridge.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";
import { waitFor, within } from "../support/wait.ts";
import {
  BOUND_MS,
  GRACE_MS,
  MIB,
  PING_BOUND_MS,
  peakRssMb,
  resetPeakRss,
  rssMb,
} from "./bounds-harness.ts";

afterEach(closeRawBridges);
afterAll(removeTempDirs);

const FILES = 40;
const SIZE = 2 * MIB;
const CLIENT = "apply-bounds";

const ws = workspace();
const rels = Array.from({ length: FILES }, (_, i) => `f${i}.fake`);
const body = `${"x".repeat(99)}\n`.repeat(SIZE / 100);
const state = tempDir("theodolite-apply-bounds-state-");
const fake = new FakeProbe("fake");
const changes = Object.fromEntries(
  rels.map((rel) => [ws.uri(rel), [{ range: lspRange(0, 0, 3), newText: "NEW" }]]),
);
const config = editEverywhereConfig({
  fake,
  ws,
  changes,
  client: CLIENT,
  state,
  bridge: { shutdown_grace_ms: GRACE_MS },
});

/** How each file starts: "old" before, "NEW" after the apply. */
const heads = () => rels.map((rel) => readFileSync(ws.path(rel), "utf8").slice(0, 3));
const temps = () => readdirSync(ws.root).filter((n) => n.includes(".theodolite-"));
const records = () => readdirSync(join(state, "applies"));

/** Every file old again, a bridge on them, and the handle of the edit. */
async function fresh(): Promise<{ bridge: RawBridge; handle: string }> {
  for (const rel of rels) ws.write(rel, `old${body}`);
  const bridge = await RawBridge.start(config, CLIENT);
  const listed = await bridge.call("code_actions", { file: rels[0], line: 1, column: 1 }, 60_000);
  const handle = (listed.structured.actions as { handle?: string }[] | undefined)?.[0]?.handle;
  if (handle === undefined) throw new Error(`no handle: ${JSON.stringify(listed.response)}`);
  return { bridge, handle };
}

test(`a ${FILES}-file apply of ${SIZE / MIB} MiB files: memory not growing with the files, status answered`, async () => {
  const { bridge, handle } = await fresh();
  resetPeakRss(bridge.pid);
  const before = rssMb(bridge.pid);
  let answered = false;
  const applying = bridge.call("code_action_apply", { handle }, 120_000).finally(() => {
    answered = true;
  });
  const latencies: number[] = [];
  while (!answered) {
    const started = performance.now();
    const status = await bridge.call("session_status", {}, PING_BOUND_MS);
    expect(status.isError).toBe(false);
    if (!answered) latencies.push(performance.now() - started);
  }
  const answer = await applying;
  expect(answer.isError).toBe(false);
  expect(heads()).toEqual(rels.map(() => "NEW"));
  expect(temps()).toEqual([]);
  const growth = peakRssMb(bridge.pid) - before;
  const slowest = Math.max(0, ...latencies);
  console.log(
    `[apply-bounds] ${FILES} x ${SIZE / MIB} MiB in ${answer.ms.toFixed(0)} ms: peak RSS +${growth.toFixed(0)} MB over ${before.toFixed(0)} MB; ${latencies.length} status calls during it, slowest ${slowest.toFixed(0)} ms`,
  );
  // what one file leaves until the collector's next full collection (collector.ts: after
  // FLOOD_BYTES read) and a few files' buffers — not FILES × SIZE, which an apply keeping
  // the files' texts grew by several times
  expect(growth).toBeLessThan((FLOOD_BYTES + 8 * SIZE) / MIB);
  expect(latencies.length).toBeGreaterThan(0);
  expect(slowest).toBeLessThan(PING_BOUND_MS);
}, 180_000);

test("stdin closed while the apply prepares its files: the exit within the bound, all old or all new, nothing left", async () => {
  const { bridge, handle } = await fresh();
  void bridge.call("code_action_apply", { handle }, 120_000).catch(() => {});
  // the checks are done and the preparation under way once the first temp file exists
  await waitFor(() => temps().length > 0, 60_000, { intervalMs: 1, what: "a temp file" });
  const closed = performance.now();
  bridge.endStdin();
  await within(bridge.exited, GRACE_MS + BOUND_MS + 5000, "the bridge to exit");
  const ms = performance.now() - closed;
  const now = heads();
  console.log(
    `[apply-bounds] stdin closed during the apply: exit after ${ms.toFixed(0)} ms (${now[0]})`,
  );
  expect(ms).toBeLessThan(GRACE_MS + BOUND_MS);
  expect([rels.map(() => "old"), rels.map(() => "NEW")]).toContainEqual(now);
  expect(temps()).toEqual([]);
  expect(records()).toEqual([]);
}, 180_000);
