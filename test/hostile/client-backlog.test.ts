/**
 * A client that never reads what the bridge writes (SPEC §8.2): its stdout and stderr are
 * pipes nobody reads (FIFOs the test holds open, so no runtime reads them behind its back)
 * while it keeps writing requests that each get an answer. The bridge stops reading it
 * once MAX_OUTPUT_BYTES of answers wait, and when the client takes nothing for
 * OUTPUT_STALL_MS past that, exits as on stdin EOF: its peak resident size stays under
 * RSS_BOUND_MB and nothing of its server tree is left.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { closeSync, openSync } from "node:fs";
import { join } from "node:path";
import { type Subprocess, spawn } from "bun";
import { OUTPUT_STALL_MS } from "../../src/mcp/transport/stdio.ts";
import { ensureBinary, fakeServer, writeConfig } from "../support/bridge.ts";
import { gone, treeOf } from "../support/processes.ts";
import { initializeParams } from "../support/raw-bridge.ts";
import { tempDir } from "../support/temp-dirs.ts";
import { waitFor, waitForValue, within } from "../support/wait.ts";
import {
  BOUND_MS,
  cleanupAfterEach,
  GRACE_MS,
  peakRssMb,
  RSS_BOUND_MB,
  START_MS,
} from "./bounds-harness.ts";

const { started } = cleanupAfterEach();
const fds: number[] = [];
afterEach(() => {
  for (const fd of fds.splice(0)) closeSync(fd);
});

/** A pipe nobody reads: a FIFO opened read-write, so the bridge's writes never fail. */
function unreadPipe(dir: string, name: string): number {
  const path = join(dir, name);
  Bun.spawnSync(["mkfifo", path]);
  const fd = openSync(path, "r+");
  fds.push(fd);
  return fd;
}

const line = (m: unknown) => `${JSON.stringify(m)}\n`;
const initialize = line({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: initializeParams("t"),
});
const initialized = line({ jsonrpc: "2.0", method: "notifications/initialized" });
const statusCall = (id: number, args: Record<string, unknown> = {}) =>
  line({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "session_status", arguments: args },
  });

/** What the client floods with, 64 KiB or so at a time. */
const FLOODS: Record<string, (round: number) => string> = {
  // -32700 for each 2-byte line: the transport's own answers
  junk: () => "x\n".repeat(32_768),
  // tool calls answered by the bridge (the 257th waiting one refused -32000 at once)
  status: (round) =>
    Array.from({ length: 256 }, (_, k) => statusCall(1000 + round * 256 + k)).join(""),
};

async function unreadClient(flood: (round: number) => string) {
  const dir = tempDir("theodolite-backlog-");
  const ws = tempDir("theodolite-backlog-ws-");
  await Bun.write(join(ws, "a.fake"), "fn_a\n");
  const config = writeConfig(
    {
      bridge: { shutdown_grace_ms: GRACE_MS },
      workspace: [{ name: "w", root: ws, servers: ["fake"] }],
      server: [fakeServer("fake")],
    },
    dir,
  );
  const proc: Subprocess<"pipe", number, number> = spawn(
    [ensureBinary(), "--config", config, "--isolated"],
    {
      stdin: "pipe",
      stdout: unreadPipe(dir, "out"),
      stderr: unreadPipe(dir, "err"),
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/" },
    },
  );
  started.add(proc.pid);
  proc.stdin.write(initialize + initialized + statusCall(1, { start: true }));
  await proc.stdin.flush();
  // the session's tree, seen from /proc (the answer naming its pids is never read)
  const tree = await waitForValue(
    () => {
      const pids = treeOf(proc.pid).filter((p) => p.pid !== proc.pid);
      return pids.length >= 2 ? pids.map((p) => p.pid) : undefined;
    },
    START_MS,
    { what: "the session's tree" },
  );
  for (const pid of tree) started.add(pid);
  // the client writes on while the bridge reads it; its pipe fills once the bridge stops
  let sent = 0;
  const writing = (async () => {
    for (let round = 0; proc.exitCode === null; round++) {
      const text = flood(round);
      proc.stdin.write(text);
      await proc.stdin.flush();
      sent += text.length;
    }
  })().catch(() => {});
  const floodAt = Date.now();
  let peak = 0;
  const exited = (async () => {
    while (proc.exitCode === null && proc.signalCode === null) {
      const now = peakRssMb(proc.pid);
      if (Number.isFinite(now)) peak = Math.max(peak, now);
      // past the bound the test has failed: the machine is not made to find out how far
      if (peak >= RSS_BOUND_MB) proc.kill("SIGKILL");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })().catch(() => {});
  const code = await within(proc.exited, OUTPUT_STALL_MS + START_MS, "the bridge to exit");
  const ms = Date.now() - floodAt;
  await exited;
  void writing;
  return { code, ms, peak, tree, sent };
}

describe("a client that never reads its output (SPEC §8.2)", () => {
  for (const [mode, flood] of Object.entries(FLOODS)) {
    test(`${mode}: the bridge stops reading it, stays bounded, and exits with its tree gone`, async () => {
      const r = await unreadClient(flood);
      console.log(
        `[bounds] unread client, ${mode}: exit ${r.code} ${r.ms} ms after the flood began; peak RSS ${r.peak.toFixed(0)} MB; ${(r.sent / 1e6).toFixed(1)} MB handed to its stdin`,
      );
      expect(r.code).toBe(0);
      expect(r.ms).toBeGreaterThanOrEqual(OUTPUT_STALL_MS);
      expect(r.peak).toBeLessThan(RSS_BOUND_MB);
      await waitFor(() => r.tree.every(gone), BOUND_MS, { what: "the tree to be gone" });
    }, 90_000);
  }
});
