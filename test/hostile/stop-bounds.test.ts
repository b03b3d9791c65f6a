/**
 * Stopping is bounded and containment holds whatever a server does (SPEC §9.2), against the
 * compiled bridge:
 * - a server that stops reading its stdin while a ~1 MB document waits to be written to it:
 *   stdin EOF ends the bridge within `shutdown_grace_ms` + 2 s with nothing of the tree
 *   left, and `session_restart` is answered (both hung for ever when the `exit`
 *   notification's write was awaited without a bound);
 * - a server that SIGSTOPs its supervisor and leaves a setsid double-forked daemon, or a
 *   supervisor stopped from outside: the bridge SIGKILLed, nothing of the tree is alive 2 s
 *   later — as root through the session's PID namespace, and as an unprivileged user
 *   through the subreaper, whose parent-death signal wakes the stopped supervisor.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readProc } from "../../src/process/proctree.ts";
import {
  type BridgeHandle,
  closeAllBridges,
  fakeServer,
  startBridge,
  writeConfig,
} from "../support/bridge.ts";
import { gone, killLeft, readPid } from "../support/processes.ts";
import { closeRawBridges, RawBridge } from "../support/raw-bridge.ts";
import { removeTempDirs } from "../support/temp-dirs.ts";
import { hasSysAdmin, openTempDir, unprivilegedPrefix } from "../support/unprivileged.ts";
import { waitFor, waitForValue, within } from "../support/wait.ts";
import {
  BOUND_MS,
  GRACE_MS,
  hostileBridge,
  MIB,
  START_MS,
  sessionEntry,
} from "./bounds-harness.ts";

const started = new Set<number>();
afterEach(async () => {
  await closeRawBridges();
  await closeAllBridges();
  killLeft(started);
});
afterAll(removeTempDirs);

interface Pids {
  supervisor: number | null;
  server: number | null;
}

/** A session whose server reads nothing more after the first hover, and a ~1 MB document waiting for it. */
async function deafServer() {
  const h = await hostileBridge(
    { on: "textDocument/hover", actions: [{ do: "stop_reading" }] },
    { request_timeout_ms: 300, shutdown_grace_ms: GRACE_MS },
  );
  started.add(h.bridge.pid);
  await h.bridge.call("session_status", { start: true }, START_MS);
  const s = await sessionEntry(h.bridge);
  expect(s.state).toBe("ready");
  const pids = s.pids as Pids;
  for (const pid of [pids.supervisor, pids.server]) if (pid !== null) started.add(pid);
  // the hover sets the attack off, and is answered
  const first = await h.bridge.call("hover", { file: "a.fake", line: 1, column: 1 }, START_MS);
  expect(first.isError).toBe(false);
  // the didOpen of a ~1 MB document cannot be written: the hover behind it times out
  writeFileSync(join(h.root, "big.fake"), `${"z".repeat(MIB)}\n`);
  const big = await h.bridge.call("hover", { file: "big.fake", line: 1, column: 1 }, START_MS);
  expect(big.code).toBe("RequestTimeout");
  return { h, pids };
}

function treeGone(pids: Pids): () => boolean {
  return () => [pids.supervisor, pids.server].every((pid) => pid === null || gone(pid));
}

describe("a server that stops reading, with a document waiting for it", () => {
  test("stdin EOF: the bridge exits within the grace + 2 s, its tree gone", async () => {
    const { h, pids } = await deafServer();
    const t0 = performance.now();
    h.bridge.endStdin();
    expect(await within(h.bridge.exited, GRACE_MS + BOUND_MS, "the bridge's exit")).toBe(0);
    const ms = performance.now() - t0;
    await waitFor(treeGone(pids), BOUND_MS, { what: `the tree ${JSON.stringify(pids)} gone` });
    console.log(`[stop] deaf server: stdin EOF → bridge exit ${ms.toFixed(0)} ms`);
  }, 60_000);

  test("session_restart is answered, the old tree gone and a new one ready", async () => {
    const { h, pids } = await deafServer();
    const t0 = performance.now();
    const r = await h.bridge.call("session_restart", {}, START_MS);
    const ms = performance.now() - t0;
    expect(r.isError).toBe(false);
    expect(r.structured.state).toBe("ready");
    expect(treeGone(pids)()).toBe(true);
    const now = (await sessionEntry(h.bridge)).pids as Pids;
    for (const pid of [now.supervisor, now.server]) if (pid !== null) started.add(pid);
    console.log(`[stop] deaf server: session_restart answered in ${ms.toFixed(0)} ms`);
  }, 60_000);
});

interface Tree {
  bridgePid: number;
  pids: number[];
  supervisor: number;
  containment: { mode: string; reason: string | null };
}

/** The fake server under `bridge`, which leaves a group daemon and a setsid double-forked one. */
async function treeOf(bridge: BridgeHandle | RawBridge, dir: string): Promise<Tree> {
  const status =
    bridge instanceof RawBridge
      ? (await bridge.call("session_status", { start: true }, START_MS)).structured
      : (await bridge.call("session_status", { start: true })).structured;
  const s = (status.sessions as Record<string, unknown>[])[0] ?? {};
  expect(s.state).toBe("ready");
  const { supervisor, server } = s.pids as { supervisor: number; server: number };
  const daemon = (name: string) =>
    waitForValue(() => readPid(join(dir, name)), START_MS, { what: name });
  const group = await daemon("group.pid");
  const setsid = await daemon("setsid.pid");
  const pids = [supervisor, server, group, setsid];
  for (const pid of pids) started.add(pid);
  // the setsid daemon left the supervisor's session and group; it lives on its own
  expect(readProc(setsid)?.sid).not.toBe(readProc(supervisor)?.sid);
  for (const pid of pids) expect(gone(pid)).toBe(false);
  const containment = s.containment as Tree["containment"];
  return { bridgePid: bridge.pid, pids, supervisor, containment };
}

function scenario(dir: string, stopParent: boolean): Record<string, unknown> {
  return {
    stop_parent: stopParent,
    daemons: [
      { kind: "group", pidfile: join(dir, "group.pid") },
      { kind: "setsid", pidfile: join(dir, "setsid.pid") },
    ],
  };
}

async function rootTree(stopParent: boolean): Promise<Tree> {
  const dir = openTempDir("theodolite-stop-");
  const config = writeConfig({
    bridge: { shutdown_grace_ms: GRACE_MS },
    workspace: [{ name: "w", root: dir, servers: ["fake"] }],
    server: [fakeServer("fake", scenario(dir, stopParent))],
  });
  const bridge = await RawBridge.start(config);
  started.add(bridge.pid);
  return treeOf(bridge, dir);
}

/** SIGKILL the bridge; nothing of the tree may be alive BOUND_MS later. */
async function killBridgeExpectNothingLeft(t: Tree, label: string): Promise<void> {
  const t0 = performance.now();
  process.kill(t.bridgePid, "SIGKILL");
  await waitFor(() => t.pids.every(gone), BOUND_MS, {
    intervalMs: 2,
    what: `${label}: ${t.pids.filter((p) => !gone(p)).join(", ")} gone`,
  });
  console.log(
    `[stop] ${label}: tree gone ${(performance.now() - t0).toFixed(0)} ms after the bridge's SIGKILL`,
  );
}

describe("a stopped supervisor cannot keep its tree alive", () => {
  test("the server SIGSTOPs its supervisor and leaves a setsid daemon; the bridge SIGKILLed", async () => {
    const t = await rootTree(true);
    if (hasSysAdmin()) expect(t.containment).toEqual({ mode: "pid_namespace", reason: null });
    await killBridgeExpectNothingLeft(t, "server stops its supervisor");
  }, 60_000);

  test("the supervisor stopped from outside; the bridge SIGKILLed", async () => {
    const t = await rootTree(false);
    process.kill(t.supervisor, "SIGSTOP");
    await waitFor(() => readProc(t.supervisor)?.state === "T", BOUND_MS, { what: "stopped" });
    await killBridgeExpectNothingLeft(t, "supervisor stopped");
  }, 60_000);

  test("without privileges: the subreaper, said in session_status; a stopped supervisor woken", async () => {
    const dir = openTempDir("theodolite-stop-");
    chmodSync(dir, 0o777);
    const config = writeConfig(
      {
        bridge: { shutdown_grace_ms: GRACE_MS },
        workspace: [{ name: "w", root: dir, servers: ["fake"] }],
        server: [fakeServer("fake", scenario(dir, false))],
      },
      openTempDir("theodolite-stop-config-"),
    );
    const home = openTempDir("theodolite-stop-home-");
    const bridge = await startBridge({ config, prefix: unprivilegedPrefix(), env: { HOME: home } });
    started.add(bridge.pid);
    const t = await treeOf(bridge, dir);
    expect(t.containment.mode).toBe("subreaper");
    expect(t.containment.reason).toContain("EPERM");
    process.kill(t.supervisor, "SIGSTOP");
    await waitFor(() => readProc(t.supervisor)?.state === "T", BOUND_MS, { what: "stopped" });
    await killBridgeExpectNothingLeft(t, "unprivileged, supervisor stopped");
  }, 60_000);
});
