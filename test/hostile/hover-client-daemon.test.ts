/**
 * Three of the bound cases (SPEC §8) against the compiled bridge: a hover whose text is a
 * 1 MiB code-fence line (linear-time normalization), client messages nested 40,000 deep
 * (the transport never dies from content), and a server daemon that re-forks every
 * millisecond (nothing of the tree alive 2 s after the bridge exits). While each runs,
 * `ping` answers within 2 s and the bridge stays under 300 MB; afterwards it serves.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { hopTag } from "../fake-server/hostile-plan.ts";
import { gone, livePidsTagged, pidsAllocatedSince } from "../support/processes.ts";
import { waitFor, waitForValue, within } from "../support/wait.ts";
import {
  cleanupAfterEach,
  hostileBridge,
  MIB,
  PING_BOUND_MS,
  type Pinged,
  peakRssMb,
  pingThrough,
  RSS_BOUND_MB,
  report,
  sessionEntry,
} from "./bounds-harness.ts";

const { started, tags } = cleanupAfterEach();

setDefaultTimeout(120_000);
/** The must-show bound for the daemon: nothing of the tree alive this long after the exit. */
const GONE_MS = 2000;

test("1. hover: a code fence, 1 MiB of spaces and one refused character", async () => {
  const h = await hostileBridge(
    { hover: { prefix: "```", unit: " ", count: MIB, suffix: "!" } },
    { max_result_bytes: 4 * MIB },
  );
  started.add(h.bridge.pid);
  let settled = false;
  const t0 = performance.now();
  const hover = h.bridge.call("hover", { file: "a.fake", line: 1, column: 1 }, 60_000);
  void hover.finally(() => {
    settled = true;
  });
  const p = await pingThrough(h, () => settled);
  const answer = await hover;
  const ms = performance.now() - t0;
  report(
    "hover with a 1 MiB fence line",
    { ...p, during: p.pings },
    h.bridge.pid,
    `; hover ${ms.toFixed(0)} ms`,
  );
  expect(answer.isError).toBe(false);
  expect(String(answer.structured.text)).toStartWith("```   ");
  expect(String(answer.structured.text)).toEndWith(" !");
  expect(peakRssMb(h.bridge.pid)).toBeLessThan(RSS_BOUND_MB);
  expect((await sessionEntry(h.bridge)).state).toBe("ready");
});

test("2. client messages nested 40,000 deep: a response, a request and a notification", async () => {
  const h = await hostileBridge({});
  started.add(h.bridge.pid);
  const deep = `${'{"a":'.repeat(40_000)}1${"}".repeat(40_000)}`; // an 80 KB line
  const p: Pinged = { pings: 0, during: 0, maxMs: 0 };
  for (let i = 0; i < 20; i++) {
    await h.bridge.writeRaw(`{"jsonrpc":"2.0","id":"nobody-${i}","result":${deep}}\n`);
    await h.bridge.writeRaw(
      `{"jsonrpc":"2.0","method":"notifications/x","params":{"a":${deep}}}\n`,
    );
    await h.bridge.writeRaw(
      `{"jsonrpc":"2.0","id":"deep-${i}","method":"tools/call","params":{"name":"hover","arguments":${deep}}}\n`,
    );
    const ms = await h.bridge.ping(PING_BOUND_MS);
    p.pings += 1;
    p.during += 1;
    p.maxMs = Math.max(p.maxMs, ms);
    const refused = await h.bridge.answer(`deep-${i}`, PING_BOUND_MS);
    expect(refused.error?.code).toBe(-32600);
    expect(refused.error?.message).toContain("nests deeper than 64 levels");
  }
  report("client messages nested 40,000 deep", p, h.bridge.pid);
  expect(h.bridge.alive()).toBe(true);
  expect(peakRssMb(h.bridge.pid)).toBeLessThan(RSS_BOUND_MB);
  // nothing answered the unasked responses; the bridge serves on
  expect(h.bridge.lines.filter((m) => String(m.id).startsWith("nobody"))).toEqual([]);
  expect((await h.bridge.call("session_status", { start: true })).isError).toBe(false);
  expect(h.bridge.notJsonRpc).toEqual([]);
});

describe("5. a daemon that re-forks every 1 ms", () => {
  /** A bridge whose server started the hopper; the tree's pids and the tag of the hops. */
  async function hopping() {
    const planTag = `theodolite-bounds-${process.pid}-${tags.length}-${Date.now()}`;
    const tag = hopTag(planTag);
    tags.push(tag);
    const h = await hostileBridge({
      on: "textDocument/hover",
      actions: [{ do: "hop", tag: planTag, interval_ms: 1, lifetime_ms: 15_000 }],
    });
    started.add(h.bridge.pid);
    await h.bridge.call("hover", { file: "a.fake", line: 1, column: 1 }, 30_000);
    const s = await sessionEntry(h.bridge);
    const pids = s.pids as { supervisor: number; server: number };
    started.add(pids.supervisor);
    started.add(pids.server);
    // the hops run (500 forks or more) while the bridge keeps answering
    await waitForValue(() => livePidsTagged(tag)[0], 10_000, { what: "a hop" });
    const p = await pingThrough(h, pidsAllocatedSince(500));
    // still hopping: one /proc scan can miss a hop whose child took a lower pid (pids wrap)
    await waitForValue(() => livePidsTagged(tag)[0], 10_000, { what: "a hop still running" });
    return { h, tag, pids, p: { ...p, during: p.pings } };
  }

  async function expectNothingLeft(tag: string, pids: { supervisor: number; server: number }) {
    const t0 = performance.now();
    await waitFor(
      () => livePidsTagged(tag).length === 0 && gone(pids.supervisor) && gone(pids.server),
      GONE_MS,
      { what: "every process of the tree gone" },
    );
    const ms = performance.now() - t0;
    // and it stays so: a scan racing a hop across a pid wrap can miss it once, not thrice
    for (let i = 0; i < 3; i++) expect(livePidsTagged(tag)).toEqual([]);
    return ms;
  }

  test("the bridge exits (stdin EOF): every hop gone within 2 s", async () => {
    const { h, tag, pids, p } = await hopping();
    report("daemon hopping every 1 ms", p, h.bridge.pid);
    expect(peakRssMb(h.bridge.pid)).toBeLessThan(RSS_BOUND_MB);
    h.bridge.endStdin();
    expect(await within(h.bridge.exited, 10_000, "the bridge to exit")).toBe(0);
    const ms = await expectNothingLeft(tag, pids);
    console.log(
      `[bounds] daemon hopping every 1 ms, bridge exited: all gone after ${ms.toFixed(0)} ms`,
    );
  });

  test("the bridge is SIGKILLed: the supervisor reaps every hop within 2 s", async () => {
    const { h, tag, pids } = await hopping();
    process.kill(h.bridge.pid, "SIGKILL");
    await h.bridge.exited;
    const ms = await expectNothingLeft(tag, pids);
    console.log(
      `[bounds] daemon hopping every 1 ms, bridge SIGKILLed: all gone after ${ms.toFixed(0)} ms`,
    );
  });
});
