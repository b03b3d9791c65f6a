/**
 * A version check's process, contained like a session's tree (SPEC §9.2): the init of a PID
 * namespace of its own where the machine allows it (root here), else the leader of its own
 * group; its end leaves nothing it started alive, whether it exited or still runs.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startCheck } from "../../../src/process/check-run.ts";
import { readProc } from "../../../src/process/proctree.ts";
import { gone, killLeft, readPid } from "../../support/processes.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";
import { hasSysAdmin } from "../../support/unprivileged.ts";
import { waitForValue, within } from "../../support/wait.ts";

const tmp = tempDir("theodolite-check-run-");
const started = new Set<number>();
afterEach(() => killLeft(started));
afterAll(removeTempDirs);

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

/** Shell that writes its pid as `/proc` names it (not `$$`, its namespace's) to `file`. */
function ownPidTo(file: string): string {
  return `read -r pid _ < /proc/self/stat; echo "$pid" > '${file}'`;
}

function script(name: string, body: string): string {
  const path = join(tmp, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** A sleeper that writes its pid to `name`.pid first. */
function sleeper(name: string): string {
  return script(`${name}.sh`, `${ownPidTo(join(tmp, `${name}.pid`))}\nexec sleep 1000`);
}

async function pidOf(name: string): Promise<number> {
  const pid = await waitForValue(() => readPid(join(tmp, `${name}.pid`)), 10_000, {
    what: `${name}'s pid`,
  });
  started.add(pid);
  return pid;
}

describe("startCheck", () => {
  test("as root the init of its own PID namespace, else the leader of its own group", async () => {
    const run = startCheck(["/bin/sh", "-c", "echo $$; exec sleep 1000"], { cwd: tmp, env });
    started.add(run.pid);
    expect(run.containment.mode).toBe(hasSysAdmin() ? "pid_namespace" : "subreaper");
    const inner = run.containment.mode === "pid_namespace" ? 1 : run.pid;
    const reader = run.stdout.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(Number(first.trim())).toBe(inner);
    expect(readProc(run.pid)?.pgid).toBe(run.pid);
    expect(run.running()).toBe(true);
    reader.releaseLock();
    await run.end();
    expect(run.running()).toBe(false);
    expect(gone(run.pid)).toBe(true);
  });

  test("its exit: what it left in its group (and, in its namespace, a setsid daemon) is gone at its end", async () => {
    const body = [
      `setsid '${sleeper("daemon")}' </dev/null >/dev/null 2>&1 &`,
      `'${sleeper("member")}' </dev/null >/dev/null 2>&1 &`,
      `until [ -s '${join(tmp, "daemon.pid")}' ] && [ -s '${join(tmp, "member.pid")}' ]; do :; done`,
      "echo 1.0",
    ].join("\n");
    const run = startCheck([script("leaves", body)], { cwd: tmp, env });
    started.add(run.pid);
    expect(await within(run.exited, 10_000, "the check's exit")).toEqual({ code: 0, signal: null });
    const member = await pidOf("member");
    const daemon = await pidOf("daemon");
    await run.end();
    expect(gone(member)).toBe(true);
    // without a namespace, only a subreaper (the bridge) takes a setsid daemon (SPEC §9.2)
    if (run.containment.mode === "pid_namespace") expect(gone(daemon)).toBe(true);
  });

  test("still running, ignoring SIGTERM: its end kills it and its child", async () => {
    const body = [`trap '' TERM`, `'${sleeper("kid")}' &`, "wait"].join("\n");
    const run = startCheck([script("hangs", body)], { cwd: tmp, env });
    started.add(run.pid);
    const kid = await pidOf("kid");
    await within(run.end(), 3000, "the check's end");
    expect((await run.exited).signal).toBe("SIGKILL");
    expect([run.pid, kid].filter((pid) => !gone(pid))).toEqual([]);
  });
});
