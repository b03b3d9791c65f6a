/**
 * No process escapes through a version check (SPEC §9.2, §3, §2.1), through the compiled
 * binary. A configured server's `version_command` is a script that ignores SIGTERM, starts a
 * child and waits for it: at the check's 10 s bound both are gone when the call is answered;
 * on stdin EOF during the check the pending call is answered `Cancelled` ("the bridge is
 * shutting down"), the bridge exits within the grace + 2 s and both are gone; 2 s after the
 * bridge's SIGKILL both are gone. Zero-config runs a workspace's own
 * `node_modules/.bin/typescript-language-server`, whose `--version` leaves a setsid daemon:
 * it is gone once discovery is over — as root (the check's PID namespace) and as an
 * unprivileged user (its group and the bridge's subreaper), where a configured check's group
 * child and setsid daemon are gone once the session started too.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { VERSION_TIMEOUT_MS } from "../../src/process/version-pin.ts";
import { fakeServer, startBridge, writeConfig } from "../support/bridge.ts";
import { gone, readPid } from "../support/processes.ts";
import { RawBridge } from "../support/raw-bridge.ts";
import { openTempDir, unprivilegedPrefix } from "../support/unprivileged.ts";
import { waitFor, waitForValue, within } from "../support/wait.ts";
import { BOUND_MS, cleanupAfterEach, GRACE_MS, START_MS } from "./bounds-harness.ts";

/** Every process a test's scripts start names its directory in its command line (a tag). */
const { started, tags } = cleanupAfterEach();

/** A directory for one test, open to an unprivileged user; what runs from it is killed after. */
function testDir(): string {
  const dir = openTempDir("theodolite-version-check-");
  tags.push(dir);
  // `sleep` under a name that carries the directory, so that the cleanup finds it
  symlinkSync(Bun.which("sleep") ?? "/bin/sleep", join(dir, "sleep"));
  return dir;
}

function script(path: string, body: string): string {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** Shell that writes the pid `/proc` gives the shell to `file` (`$$` is its namespace's pid). */
function writeOwnPid(file: string): string {
  return `read -r pid _ < /proc/self/stat; echo "$pid" > '${file}'`;
}

/** A script that writes its pid to `name`.pid and sleeps on under the directory's `sleep`. */
function child(dir: string, name: string): string {
  const sleep = join(dir, "sleep");
  return script(
    join(dir, `${name}.sh`),
    `${writeOwnPid(join(dir, `${name}.pid`))}\nexec '${sleep}' 1000`,
  );
}

/** The brief's script: ignores SIGTERM, starts a child and waits for it. */
function hangingCheck(dir: string): string {
  return script(
    join(dir, "hang.sh"),
    [`trap '' TERM`, writeOwnPid(join(dir, "check.pid")), `${child(dir, "child")} &`, "wait"].join(
      "\n",
    ),
  );
}

/** Wait until `names` have written their pids, and track them. */
async function pidsOf(dir: string, names: string[]): Promise<number[]> {
  const pids: number[] = [];
  for (const name of names) {
    const pid = await waitForValue(() => readPid(join(dir, `${name}.pid`)), START_MS, {
      what: `${name}'s pid`,
    });
    started.add(pid);
    pids.push(pid);
  }
  return pids;
}

/** A bridge whose one server has `version_command = [check]`, and a hover that starts it. */
async function configured(dir: string, check: string) {
  writeFileSync(join(dir, "a.fake"), "alpha\n");
  const config = writeConfig({
    bridge: { shutdown_grace_ms: GRACE_MS },
    workspace: [{ name: "w", root: dir, servers: ["fake"] }],
    server: [fakeServer("fake", {}, { version_command: [check] })],
  });
  const bridge = await RawBridge.start(config);
  started.add(bridge.pid);
  const hover = bridge.call(
    "hover",
    { file: "a.fake", line: 1, column: 1 },
    VERSION_TIMEOUT_MS * 2,
  );
  hover.catch(() => {}); // a test that kills the bridge leaves it unanswered
  const pids = await pidsOf(dir, ["check", "child"]);
  for (const pid of pids) expect(gone(pid)).toBe(false);
  return { bridge, hover, pids };
}

describe("a configured version check that hangs, with a child", () => {
  test(
    "its bound: the call answered ServerStartFailed, the script and its child gone",
    async () => {
      const dir = testDir();
      const { hover, pids } = await configured(dir, hangingCheck(dir));
      const r = await hover;
      expect(r.code).toBe("ServerStartFailed");
      expect((r.structured.details as { timed_out?: boolean }).timed_out).toBe(true);
      // killed before the answer, the child with it
      expect(pids.filter((pid) => !gone(pid))).toEqual([]);
    },
    VERSION_TIMEOUT_MS + START_MS,
  );

  test("stdin EOF: the pending call answered Cancelled, the exit within the bound, both gone", async () => {
    const dir = testDir();
    const { bridge, hover, pids } = await configured(dir, hangingCheck(dir));
    const t0 = performance.now();
    bridge.endStdin();
    const r = await hover;
    expect(r.code).toBe("Cancelled");
    expect(r.structured.message).toContain("the bridge is shutting down");
    expect(await within(bridge.exited, GRACE_MS + BOUND_MS, "the bridge's exit")).toBe(0);
    const ms = performance.now() - t0;
    expect(pids.filter((pid) => !gone(pid))).toEqual([]);
    console.log(`[version check] stdin EOF → answered and exited in ${ms.toFixed(0)} ms`);
  }, 60_000);

  test("the bridge SIGKILLed: the script and its child gone within 2 s", async () => {
    const dir = testDir();
    const { bridge, pids } = await configured(dir, hangingCheck(dir));
    const t0 = performance.now();
    process.kill(bridge.pid, "SIGKILL");
    await waitFor(() => pids.every(gone), BOUND_MS, {
      intervalMs: 2,
      what: `${pids.filter((p) => !gone(p)).join(", ")} gone`,
    });
    const ms = performance.now() - t0;
    console.log(`[version check] gone ${ms.toFixed(0)} ms after the bridge's SIGKILL`);
  }, 60_000);
});

/** A version script that prints `version` once a setsid daemon of its has written its pid. */
function daemonCheck(path: string, dir: string, version: string, groupChild: boolean): string {
  const daemon = `setsid ${child(dir, "daemon")} </dev/null >/dev/null 2>&1 &`;
  const kept = groupChild ? [`${child(dir, "child")} </dev/null >/dev/null 2>&1 &`] : [];
  const waits = [`until [ -s '${join(dir, "daemon.pid")}' ]; do :; done`];
  if (groupChild) waits.push(`until [ -s '${join(dir, "child.pid")}' ]; do :; done`);
  return script(path, [daemon, ...kept, ...waits, `echo '${version}'`].join("\n"));
}

const privileges = [
  { label: "as root", prefix: () => [] as string[] },
  { label: "unprivileged", prefix: unprivilegedPrefix },
];

describe("zero-config: a workspace's own server whose --version leaves a setsid daemon", () => {
  for (const { label, prefix } of privileges) {
    test(`${label}: the daemon is gone once discovery is over`, async () => {
      const root = testDir();
      writeFileSync(join(root, "package.json"), "{}\n");
      writeFileSync(join(root, "index.ts"), "export const a = 1;\n");
      const bin = join(root, "node_modules", ".bin");
      mkdirSync(bin, { recursive: true });
      daemonCheck(join(bin, "typescript-language-server"), root, "4.3.3", false);
      const bridge = await startBridge({
        args: [],
        cwd: root,
        prefix: prefix(),
        env: { PATH: "/usr/bin:/bin", HOME: openTempDir("theodolite-version-home-") },
      });
      started.add(bridge.pid);
      // answered once discovery is over (every call waits for it)
      const status = await bridge.call("session_status");
      const bridgeStatus = status.structured.bridge as {
        discovery: { servers: { name: string; why: string | null }[] };
      };
      const row = bridgeStatus.discovery.servers.find(
        (s) => s.name === "typescript-language-server",
      );
      // its version command ran (it is left out then: no TypeScript for it)
      expect(row?.why).toContain(`${join(bin, "typescript-language-server")} (4.3.3) found`);
      const [daemon] = await pidsOf(root, ["daemon"]);
      expect(gone(daemon as number)).toBe(true);
    }, 60_000);
  }
});

test("unprivileged: a configured check's group child and setsid daemon are gone once it ends", async () => {
  const dir = testDir();
  writeFileSync(join(dir, "a.fake"), "alpha\n");
  const check = daemonCheck(join(dir, "version.sh"), dir, Bun.version, true);
  const config = writeConfig(
    {
      bridge: { shutdown_grace_ms: GRACE_MS },
      workspace: [{ name: "w", root: dir, servers: ["fake"] }],
      server: [fakeServer("fake", {}, { version_command: [check] })],
    },
    testDir(),
  );
  const bridge = await startBridge({
    config,
    prefix: unprivilegedPrefix(),
    env: { HOME: openTempDir("theodolite-version-home-") },
  });
  started.add(bridge.pid);
  const status = await bridge.call("session_status", { start: true });
  const s = (status.structured.sessions as { state: string; containment: { mode: string } }[])[0];
  expect(s?.state).toBe("ready");
  expect(s?.containment.mode).toBe("subreaper");
  const pids = await pidsOf(dir, ["daemon", "child"]);
  expect(pids.filter((pid) => !gone(pid))).toEqual([]);
}, 60_000);
