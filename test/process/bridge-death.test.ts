/**
 * SPEC §9.2/§11 tree gate at the process layer: when the bridge dies (SIGKILL,
 * or SIGTERM — it installs no handler), every supervisor notices within its
 * 50 ms poll and reaps the tree: server, group daemon, setsid daemon and the
 * supervisor itself are gone within 5 s.
 */
import { afterEach, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { isAlive } from "../../src/process/proctree.ts";
import { waitFor } from "../support/wait.ts";
import { pidFromFile, Started } from "./helpers.ts";

const STUB = resolve(import.meta.dir, "bridge-stub.ts");
const started = new Started();
afterEach(() => started.cleanup());

for (const signal of ["SIGKILL", "SIGTERM"] as const) {
  test(`bridge ${signal}: server, daemons and supervisor are gone within 5 s`, async () => {
    const dir = started.tempDir();
    const scenario = {
      // A server that ignores EOF, and the stub's 10 s grace: only the poll can be fast here.
      ignore_stdin_eof: true,
      pidfile_server: join(dir, "server.pid"),
      daemons: [
        { kind: "group", pidfile: join(dir, "group.pid") },
        { kind: "setsid", pidfile: join(dir, "setsid.pid") },
      ],
    };
    const bridge = Bun.spawn([process.execPath, STUB, JSON.stringify(scenario)], {
      cwd: dir,
      stdout: "pipe",
      stderr: "inherit",
    });
    started.track(bridge.pid);
    const reader = bridge.stdout.getReader();
    let text = "";
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the stub bridge exited before reporting");
      text += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    const { supervisorPid } = JSON.parse(text) as { supervisorPid: number };
    started.track(supervisorPid);
    const server = await pidFromFile(started, join(dir, "server.pid"));
    const group = await pidFromFile(started, join(dir, "group.pid"));
    const setsid = await pidFromFile(started, join(dir, "setsid.pid"));
    const tree = { supervisor: supervisorPid, server, group, setsid };
    for (const pid of Object.values(tree)) expect(isAlive(pid)).toBe(true);

    const t0 = performance.now();
    bridge.kill(signal);
    await waitFor(() => Object.values(tree).every((pid) => !isAlive(pid)), 5000, {
      intervalMs: 2,
      what: `the tree ${JSON.stringify(tree)} to die`,
    });
    const ms = performance.now() - t0;
    console.log(`bridge ${signal} → whole tree gone in ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(5000);
  });
}
