/**
 * The supervisor on its own, without launch.ts (whose post-exit /proc scan
 * would hide a supervisor that forgot to reap): by the time the supervisor
 * process has exited, its tree must already be gone.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { closeSync } from "node:fs";
import { join } from "node:path";
import { isAlive, readProc } from "../../src/process/proctree.ts";
import {
  formatSupervisorArgs,
  parseSupervisorArgs,
  type SupervisorArgs,
} from "../../src/process/supervisor.ts";
import type { Scenario } from "../fake-server/scenario.ts";
import { waitFor, within } from "../support/wait.ts";
import { baseEnv, FAKE_LS, pidFromFile, Started, SUPERVISOR_ENTRY } from "./helpers.ts";

const started = new Started();
afterEach(() => started.cleanup());

function superviseDirect(scenario: Scenario, graceMs = 10_000, lifeline = true) {
  const args = formatSupervisorArgs({
    bridgePid: process.pid,
    bridgeStart: readProc(process.pid)?.startTime ?? 0,
    graceMs,
    command: process.execPath,
    args: [FAKE_LS],
  });
  const sup = Bun.spawn([process.execPath, SUPERVISOR_ENTRY, "--supervise", ...args], {
    env: { ...baseEnv(), FAKE_LS_SCENARIO: JSON.stringify(scenario) },
    // stdin, stdout, stderr, and the lifeline on fd 3 (our end: a descriptor number)
    stdio: lifeline ? ["pipe", "pipe", "pipe", "pipe"] : ["pipe", "pipe", "pipe"],
    detached: true,
  });
  started.track(sup.pid);
  const ours = sup.stdio[3];
  const closeLifeline = () => {
    if (typeof ours === "number") closeSync(ours);
  };
  return Object.assign(sup, { closeLifeline });
}

/** A method the fake crashes on, sent once every pid file is written. */
const CRASH = "fake/crash";

function sendNotification(sup: ReturnType<typeof superviseDirect>, method: string): void {
  const body = JSON.stringify({ jsonrpc: "2.0", method });
  sup.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  sup.stdin.flush();
}

async function groupDaemonScenario(extra: Scenario) {
  const dir = started.tempDir();
  const scenario: Scenario = {
    pidfile_server: join(dir, "server.pid"),
    daemons: [
      { kind: "group", pidfile: join(dir, "group.pid") },
      { kind: "setsid", pidfile: join(dir, "setsid.pid") },
    ],
    ...extra,
  };
  const sup = superviseDirect(scenario);
  const pids = {
    server: await pidFromFile(started, join(dir, "server.pid")),
    group: await pidFromFile(started, join(dir, "group.pid")),
    setsid: await pidFromFile(started, join(dir, "setsid.pid")),
  };
  return { sup, pids };
}

describe("the supervisor reaps before it exits", () => {
  test("server crash: exit code mirrored, tree already gone at exit", async () => {
    const { sup, pids } = await groupDaemonScenario({ crash_on: [CRASH], exit_code: 9 });
    sendNotification(sup, CRASH);
    expect(await within(sup.exited, 5000, "supervisor exit")).toBe(9);
    for (const pid of Object.values(pids)) expect(isAlive(pid)).toBe(false);
  });

  test("server killed by a signal: the supervisor dies by the same signal", async () => {
    const { sup, pids } = await groupDaemonScenario({ crash_on: [CRASH], exit_signal: "SIGSEGV" });
    sendNotification(sup, CRASH);
    await within(sup.exited, 5000, "supervisor exit");
    expect(sup.signalCode).toBe("SIGSEGV");
    for (const pid of Object.values(pids)) expect(isAlive(pid)).toBe(false);
  });

  test("SIGTERM to the supervisor: tree gone at exit", async () => {
    const { sup, pids } = await groupDaemonScenario({});
    sup.kill("SIGTERM");
    await within(sup.exited, 5000, "supervisor exit");
    for (const pid of Object.values(pids)) expect(isAlive(pid)).toBe(false);
  });

  test("lifeline EOF, stdin still open: the server is killed after the grace, tree gone at exit", async () => {
    const dir = started.tempDir();
    const graceMs = 150;
    const sup = superviseDirect(
      { pidfile_server: join(dir, "s.pid"), daemon: "group", pidfile: join(dir, "d.pid") },
      graceMs,
    );
    const server = await pidFromFile(started, join(dir, "s.pid"));
    const daemon = await pidFromFile(started, join(dir, "d.pid"));
    const t0 = performance.now();
    sup.closeLifeline();
    await within(sup.exited, 5000, "supervisor exit");
    expect(performance.now() - t0).toBeGreaterThanOrEqual(graceMs - 5);
    expect(sup.signalCode).toBe("SIGKILL");
    for (const pid of [server, daemon]) expect(isAlive(pid)).toBe(false);
  });

  test("supervisor SIGKILLed with nobody to reap after it: the parent-death signal takes the server", async () => {
    // a server that outlives the end of its input: without the signal it would live on
    const dir = started.tempDir();
    const sup = superviseDirect({ pidfile_server: join(dir, "s.pid"), ignore_stdin_eof: true });
    const server = await pidFromFile(started, join(dir, "s.pid"));
    expect(readProc(server)?.ppid).toBe(sup.pid); // the server is the supervisor's child
    sup.kill("SIGKILL");
    await within(sup.exited, 5000, "supervisor exit");
    await waitFor(() => !isAlive(server), 5000, { what: "the server's death by SIGKILL" });
  });

  test("without a lifeline on fd 3 the supervisor refuses to start (exit 2)", async () => {
    const sup = superviseDirect({}, 150, false);
    expect(await within(sup.exited, 5000, "supervisor exit")).toBe(2);
    expect(await new Response(sup.stderr as ReadableStream).text()).toContain(
      "no lifeline on fd 3",
    );
  });

  test("first stderr line is the server-pid marker", async () => {
    const dir = started.tempDir();
    const sup = superviseDirect({ pidfile_server: join(dir, "s.pid"), stderr_lines: ["x"] });
    const server = await pidFromFile(started, join(dir, "s.pid"));
    sup.kill("SIGTERM");
    await within(sup.exited, 5000, "supervisor exit");
    const stderr = await new Response(sup.stderr).text();
    expect(stderr.split("\n")[0]).toBe(`theodolite-supervisor: server-pid=${server}`);
  });
});

describe("arguments", () => {
  const valid: SupervisorArgs = {
    bridgePid: 123,
    bridgeStart: 456789,
    graceMs: 2000,
    privateTmp: "/tmp/theodolite-server-1-abcdef",
    command: "/opt/ls/bin/server",
    args: ["--stdio", "--", "-x", ""],
  };

  test("format and parse round-trip, server args kept verbatim", () => {
    expect(parseSupervisorArgs(formatSupervisorArgs(valid))).toEqual(valid);
    const { privateTmp: _, ...shared } = valid;
    expect(formatSupervisorArgs(shared)).not.toContain("--private-tmp");
    expect(parseSupervisorArgs(formatSupervisorArgs(shared))).toEqual(shared);
  });

  test("invalid argv is refused with a reason", () => {
    const argv = formatSupervisorArgs(valid);
    const without = (flag: string) => {
      const i = argv.indexOf(flag);
      return [...argv.slice(0, i), ...argv.slice(i + 2)];
    };
    expect(parseSupervisorArgs(without("--bridge-pid"))).toBe("missing --bridge-pid");
    expect(parseSupervisorArgs(without("--grace-ms"))).toBe("missing --grace-ms");
    expect(parseSupervisorArgs(argv.slice(0, argv.indexOf("--")))).toBe("missing `-- SERVER`");
    const relative = formatSupervisorArgs({ ...valid, command: "server" });
    expect(parseSupervisorArgs(relative)).toContain("absolute path");
    const badPid = formatSupervisorArgs(valid).map((a) => (a === "123" ? "-1" : a));
    expect(parseSupervisorArgs(badPid)).toContain("non-negative integer");
    const relativeTmp = formatSupervisorArgs({ ...valid, privateTmp: "tmp/x" });
    expect(parseSupervisorArgs(relativeTmp)).toBe("--private-tmp must be an absolute path");
  });

  test("the supervisor exits 2 with usage on invalid argv", async () => {
    const sup = Bun.spawn([process.execPath, SUPERVISOR_ENTRY, "--supervise", "--bogus"], {
      stdout: "pipe",
      stderr: "pipe",
    });
    started.track(sup.pid);
    expect(await within(sup.exited, 5000, "supervisor exit")).toBe(2);
    expect(await new Response(sup.stderr).text()).toContain("usage: --supervise");
  });
});
