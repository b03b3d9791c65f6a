/**
 * Tree gates (SPEC §9.2, §11): with the fake server leaving a real
 * daemon in its process group AND a daemon that setsid()s and double-forks,
 * every exit path leaves nothing behind — the server, both daemons and the
 * supervisor are gone within 5 s. Each test prints its measured reap time.
 * Driven through the compiled binary; polls with deadlines, never sleeps.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { readProc } from "../../src/process/proctree.ts";
import { fakeServer, writeConfig } from "../support/bridge.ts";
import { gone, killLeft, readPid } from "../support/processes.ts";
import { closeRawBridges, RawBridge } from "../support/raw-bridge.ts";
import { removeTempDirs, tempDir } from "../support/temp-dirs.ts";
import { waitFor, waitForValue, within } from "../support/wait.ts";

const GATE_MS = 5000;
const started = new Set<number>();

afterEach(async () => {
  await closeRawBridges();
  // belt and braces: whatever a failed test left, by pid
  killLeft(started);
});
afterAll(removeTempDirs);

interface Tree {
  bridge: RawBridge;
  supervisor: number;
  server: number;
  groupDaemon: number;
  setsidDaemon: number;
  root: string;
}

async function startTree(scenario: Record<string, unknown> = {}): Promise<Tree> {
  const root = tempDir();
  const groupPid = join(root, "group-daemon.pid");
  const setsidPid = join(root, "setsid-daemon.pid");
  const config = writeConfig({
    bridge: { shutdown_grace_ms: 500 },
    workspace: [{ name: "w", root, servers: ["fake"] }],
    server: [
      fakeServer("fake", {
        daemons: [
          { kind: "group", pidfile: groupPid },
          { kind: "setsid", pidfile: setsidPid },
        ],
        ...scenario,
      }),
    ],
  });
  const bridge = await RawBridge.start(config);
  started.add(bridge.pid);
  const status = await bridge.call("session_status", { start: true });
  expect(status.isError).toBe(false);
  const s = (
    status.structured.sessions as { state: string; pids: { supervisor: number; server: number } }[]
  )[0];
  expect(s?.state).toBe("ready");
  const supervisor = s?.pids.supervisor as number;
  const server = await waitForValue(
    async () => {
      const st = await bridge.call("session_status", {});
      return (
        (st.structured.sessions as { pids: { server: number | null } }[])[0]?.pids.server ??
        undefined
      );
    },
    GATE_MS,
    { what: "the server pid" },
  );
  const groupDaemon = await waitForValue(() => readPid(groupPid), GATE_MS, {
    what: "the group daemon",
  });
  const setsidDaemon = await waitForValue(() => readPid(setsidPid), GATE_MS, {
    what: "the setsid daemon",
  });
  for (const pid of [supervisor, server, groupDaemon, setsidDaemon]) {
    started.add(pid);
    expect(gone(pid)).toBe(false);
  }
  // the setsid daemon really left the supervisor's session and group (double fork)
  expect(readProc(setsidDaemon)?.sid).not.toBe(readProc(supervisor)?.sid);
  expect(readProc(setsidDaemon)?.pgid).not.toBe(supervisor);
  expect(readProc(groupDaemon)?.pgid).toBe(supervisor);
  return { bridge, supervisor, server, groupDaemon, setsidDaemon, root };
}

async function expectAllGone(label: string, t0: number, pids: number[]): Promise<void> {
  await waitFor(() => pids.every(gone), GATE_MS, {
    what: `${label}: ${pids.filter((p) => !gone(p)).join(", ")} to be gone`,
  });
  console.log(`tree gate ${label}: reaped in ${(performance.now() - t0).toFixed(1)} ms`);
}

describe("tree gates", () => {
  test("session_restart reaps the old tree", async () => {
    const t = await startTree();
    const t0 = performance.now();
    const r = await t.bridge.call("session_restart", {});
    expect(r.isError).toBe(false);
    expect(r.structured.state).toBe("ready");
    await expectAllGone("session_restart", t0, [
      t.supervisor,
      t.server,
      t.groupDaemon,
      t.setsidDaemon,
    ]);
  });

  test("transport EOF reaps everything and the bridge exits 0", async () => {
    const t = await startTree();
    const t0 = performance.now();
    t.bridge.endStdin();
    // nothing but the EOF ends it: a bridge that ignored EOF would never exit
    expect(await within(t.bridge.exited, GATE_MS, "the bridge to exit after EOF")).toBe(0);
    await expectAllGone("transport EOF", t0, [
      t.supervisor,
      t.server,
      t.groupDaemon,
      t.setsidDaemon,
    ]);
  });

  test("transport EOF with a server that hangs in shutdown and ignores EOF", async () => {
    const t = await startTree({ hang_on_shutdown: true, ignore_stdin_eof: true });
    const t0 = performance.now();
    t.bridge.endStdin();
    expect(await within(t.bridge.exited, GATE_MS, "the bridge to exit after EOF")).toBe(0);
    await expectAllGone("EOF, hung server", t0, [
      t.supervisor,
      t.server,
      t.groupDaemon,
      t.setsidDaemon,
    ]);
  });

  test("bridge SIGKILL", async () => {
    const t = await startTree();
    const t0 = performance.now();
    process.kill(t.bridge.pid, "SIGKILL");
    await expectAllGone("bridge SIGKILL", t0, [
      t.supervisor,
      t.server,
      t.groupDaemon,
      t.setsidDaemon,
    ]);
  });

  test("bridge SIGTERM (no handler by design)", async () => {
    const t = await startTree();
    const t0 = performance.now();
    process.kill(t.bridge.pid, "SIGTERM");
    await expectAllGone("bridge SIGTERM", t0, [
      t.bridge.pid,
      t.supervisor,
      t.server,
      t.groupDaemon,
      t.setsidDaemon,
    ]);
  });

  test("supervisor SIGKILL: the bridge reaps what the supervisor left", async () => {
    const t = await startTree();
    const t0 = performance.now();
    process.kill(t.supervisor, "SIGKILL");
    await expectAllGone("supervisor SIGKILL", t0, [
      t.supervisor,
      t.server,
      t.groupDaemon,
      t.setsidDaemon,
    ]);
    const r = await t.bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    // the session is dead now, never restarted implicitly
    expect(r.structured.code === "SessionDead" || r.structured.code === "FileNotFound").toBe(true);
  });

  test("server crash: the supervisor reaps the daemons, the session stays dead", async () => {
    const t = await startTree({ crash_on: ["textDocument/hover"], exit_code: 7 });
    writeFileSync(join(t.root, "a.fake"), "hello\n");
    const t0 = performance.now();
    const r = await t.bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    expect(r.isError).toBe(true);
    await expectAllGone("server crash", t0, [
      t.supervisor,
      t.server,
      t.groupDaemon,
      t.setsidDaemon,
    ]);
    const again = await t.bridge.call("hover", { file: "a.fake", line: 1, column: 1 });
    expect(again.structured.code).toBe("SessionDead");
    const details = again.structured.details as { exit_code: number | null; signal: string | null };
    expect(details.exit_code).toBe(7);
    const status = await t.bridge.call("session_status", {});
    const s = (status.structured.sessions as { state: string; last_exit: { code: number } }[])[0];
    expect(s?.state).toBe("dead");
    expect(s?.last_exit.code).toBe(7);
  });

  test("orphan gate (server only): bridge SIGKILL with a plain server", async () => {
    const root = tempDir();
    const config = writeConfig({
      workspace: [{ name: "w", root, servers: ["fake"] }],
      server: [fakeServer("fake")],
    });
    const bridge = await RawBridge.start(config);
    started.add(bridge.pid);
    const status = await bridge.call("session_status", { start: true });
    const s = (status.structured.sessions as { pids: { supervisor: number } }[])[0];
    const supervisor = s?.pids.supervisor as number;
    const server = await waitForValue(async () => {
      const st = await bridge.call("session_status", {});
      return (
        (st.structured.sessions as { pids: { server: number | null } }[])[0]?.pids.server ??
        undefined
      );
    }, GATE_MS);
    const t0 = performance.now();
    process.kill(bridge.pid, "SIGKILL");
    await expectAllGone("orphan gate", t0, [supervisor, server]);
  });
});
