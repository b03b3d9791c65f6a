/**
 * A hostile server against the compiled bridge (SPEC §8, the bounds table): while it
 * floods or breaks the framing, `ping` is answered within 2 s and the bridge stays under
 * 300 MB; afterwards the bridge serves — a flood is absorbed and the session stays ready,
 * a broken stream marks the session dead with its tree reaped and the next call names why.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HostilePlan } from "../fake-server/hostile-plan.ts";
import { waitFor } from "../support/wait.ts";
import {
  absorbedAttack,
  attackAndBreak,
  attackTimes,
  cleanupAfterEach,
  ended,
  expectBroken,
  MIB,
  peakRssMb,
  pingThrough,
  RSS_BOUND_MB,
  report,
  sessionEntry,
  startedHostile as startedWith,
  stopped,
} from "./bounds-harness.ts";

const { started } = cleanupAfterEach();
const startedHostile = (plan: HostilePlan, keys: Record<string, unknown> = {}) =>
  startedWith(started, plan, keys);
const absorbed = (plan: HostilePlan, label: string) => absorbedAttack(started, plan, label);
const broken = (plan: HostilePlan, label: string, why: string) =>
  attackAndBreak(started, plan, label, why);

setDefaultTimeout(120_000);

describe("floods are absorbed; the session stays ready", () => {
  test("3. stderr without a newline, 128 MiB", async () => {
    const plan: HostilePlan = { actions: [{ do: "stderr", unit: "#", bytes: 128 * MIB }] };
    const { h } = await absorbed(plan, "stderr 128 MiB, no newline");
    expect((await sessionEntry(h.bridge)).state).toBe("ready");
    const hover = await h.bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    expect(hover.isError).toBe(false);
  });

  test("6. client/registerCapability, 20,000 requests", async () => {
    const plan: HostilePlan = {
      actions: [{ do: "flood", kind: "register", count: 20_000, chars: 16 }],
    };
    const { h } = await absorbed(plan, "registerCapability × 20,000");
    const s = await sessionEntry(h.bridge);
    expect(s.state).toBe("ready");
    // the first 1000 kept (SPEC §8), their watchers compiled once the burst was over
    await waitFor(
      async () =>
        ((await sessionEntry(h.bridge)).coherence as { watchers_total: number }).watchers_total ===
        1000,
      10_000,
      { what: "1000 watchers" },
    );
    expect((await h.bridge.call("hover", { file: "a.fake", line: 1, column: 1 })).isError).toBe(
      false,
    );
  });

  test("7. $/progress begins that never end, 100,000 with 1 KiB titles", async () => {
    const plan: HostilePlan = {
      actions: [{ do: "flood", kind: "progress", count: 100_000, chars: 1024 }],
    };
    const { h } = await absorbed(plan, "$/progress × 100,000");
    // the one tool that shows state still answers, bounded
    const s = await sessionEntry(h.bridge);
    expect(s.progress_active).toBe(256);
    expect(s.progress_dropped).toBe(100_000 - 256);
    expect((s.progress as unknown[]).length).toBe(20);
  });

  test("8. publishDiagnostics for 200,000 URIs outside the root", async () => {
    const { h } = await startedHostile({
      actions: [{ do: "flood", kind: "publish", count: 200_000, chars: 16, outside: true }],
    });
    const p = await pingThrough(h, ended(h));
    // the flood is in; the session has taken every publish once this answers
    const t0 = performance.now();
    const d = await h.bridge.call("diagnostics", {}, 10_000);
    const ms = performance.now() - t0;
    report(
      "publishDiagnostics × 200,000 outside",
      p,
      h.bridge.pid,
      `; diagnostics ${ms.toFixed(0)} ms`,
    );
    expect(p.during).toBeGreaterThan(0);
    expect(peakRssMb(h.bridge.pid)).toBeLessThan(RSS_BOUND_MB);
    expect(d.isError).toBe(false);
    expect(d.structured.total).toBe(0);
    expect(ms).toBeLessThan(2000);
    const s = await sessionEntry(h.bridge);
    expect((s.diagnostics_dropped as { outside_root: number }).outside_root).toBe(200_000);
  });

  test("8b. publishDiagnostics for 200,000 URIs inside the root: 20,000 kept, the call bounded in time", async () => {
    const { h } = await startedHostile({
      actions: [{ do: "flood", kind: "publish", count: 200_000, chars: 16, outside: false }],
    });
    const p = await pingThrough(h, ended(h));
    const t0 = performance.now();
    const d = await h.bridge.call("diagnostics", { limit: 10 }, 20_000);
    const ms = performance.now() - t0;
    report(
      "publishDiagnostics × 200,000 inside",
      p,
      h.bridge.pid,
      `; diagnostics ${ms.toFixed(0)} ms`,
    );
    expect(peakRssMb(h.bridge.pid)).toBeLessThan(RSS_BOUND_MB);
    // 20,000 files kept, 180,000 refused; none of them exists, so none is served (SPEC §6:
    // what the server said of a file that vanished is dropped), and the answer is partial
    expect(d.isError).toBe(false);
    expect(d.structured.total).toBe(0);
    expect(d.structured.complete).toBe(false);
    const s = await sessionEntry(h.bridge);
    expect((s.diagnostics_dropped as { uris: number }).uris).toBe(180_000);
    expect(ms).toBeLessThan(10_000);
    const pinged = await h.bridge.ping(2000);
    expect(pinged).toBeLessThan(2000);
  });
});

describe("a broken stream: the session dies at once, the tree is reaped, the next call says why", () => {
  test("4. a header that never ends, 64 MiB", async () => {
    await broken(
      { actions: [{ do: "raw", unit: "x", bytes: 64 * MIB }] },
      "header without end, 64 MiB",
      "a message header longer than 8192 bytes",
    );
  });

  test("9. Content-Length: 4000000000, then 256 MiB", async () => {
    const prefix = "Content-Length: 4000000000\r\n\r\n";
    await broken(
      { actions: [{ do: "raw", prefix, unit: "{", bytes: 256 * MIB }] },
      "Content-Length 4000000000 + 256 MiB",
      "a message of 4000000000 bytes, over bridge.max_server_message_bytes",
    );
  });

  test("9b. a complete 100 MiB response", async () => {
    const { h, pids, hover } = await startedHostile({
      actions: [{ do: "answer_big", bytes: 100 * MIB }],
    });
    const p = await pingThrough(h, stopped(pids));
    report("a 100 MiB response", p, h.bridge.pid);
    expect(peakRssMb(h.bridge.pid)).toBeLessThan(RSS_BOUND_MB);
    const answer = await hover;
    expect(answer.code).toBe("SessionDead");
    expect(String(answer.structured.message)).toContain("over bridge.max_server_message_bytes");
    await expectBroken(h, pids, "over bridge.max_server_message_bytes (33554432)");
  });

  test("10. stdout closed while the server runs on", async () => {
    const { h, pids, hover } = await startedHostile({ actions: [{ do: "close_stdout" }] });
    // the hover that made it close is never answered: it fails once the session is dead
    const call = await hover;
    const ms = Date.now() - (attackTimes(h.marker).begin as number);
    console.log(`[bounds] stdout closed: the call failed ${ms} ms after the close`);
    expect(call.code).toBe("SessionDead");
    expect(String(call.structured.message)).toContain("closed its stdout and keeps running");
    expect(ms).toBeLessThan(2000);
    await expectBroken(h, pids, "closed its stdout and keeps running");
  });

  test("11. a server that stops reading its stdin while calls send it documents", async () => {
    const { h, pids } = await startedHostile(
      { actions: [{ do: "stop_reading" }] },
      { request_timeout_ms: 300 },
    );
    // each call opens a 4 MiB document: the bridge's writes wait for a reader that is gone
    const text = `${"z".repeat(4 * MIB)}\n`;
    let n = 0;
    const p = await pingThrough(h, async () => {
      if (stopped(pids)()) return true;
      writeFileSync(join(h.root, `big${n}.fake`), text);
      const call = await h.bridge.call("hover", { file: `big${n++}.fake`, line: 1, column: 1 });
      expect(["RequestTimeout", "SessionDead"]).toContain(String(call.code));
      return false;
    });
    report(
      `a server that stops reading (${n} documents sent)`,
      { ...p, during: p.pings },
      h.bridge.pid,
    );
    expect(peakRssMb(h.bridge.pid)).toBeLessThan(RSS_BOUND_MB);
    await expectBroken(h, pids, "the server does not read its input");
  });
});
