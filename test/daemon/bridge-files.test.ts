/**
 * A shared bridge's files in the private directory (SPEC §2.2), through the built
 * binary on the fake server: a starting bridge removes what bridges that no longer run
 * left — proven by their locks — and keeps a dead bridge's log one sweep longer, its
 * name's previous log one generation; and a client that finds another process holding
 * a bridge's lock waits for the event that ends the wait, not by polling.
 */
import { describe, expect, test } from "bun:test";
import { closeSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { daemonFiles, holdLock } from "../../src/daemon/files.ts";
import { Inotify } from "../../src/ffi/inotify.ts";
import { gone } from "../support/processes.ts";
import { fakeWorkspace, type SharedWorld, worldPerTest } from "../support/shared-bridge.ts";
import { waitFor, waitForValue } from "../support/wait.ts";

let world: SharedWorld;
worldPerTest((w) => {
  world = w;
});

/** inotify(7): the file was opened. */
const IN_OPEN = 0x20;

describe("stale files", () => {
  test("a starting bridge removes the files of bridges that no longer run, keeping a dead one's log one sweep", async () => {
    const start = async (idle: number) => {
      const { config } = fakeWorkspace({ shared_idle_seconds: idle });
      expect((await world.run(["call", "session_status", "--config", config])).code).toBe(0);
      const bridge = (await world.status()).find((b) => b.roots.length > 0 && !seen.has(b.pid));
      if (bridge === undefined) throw new Error("no new bridge");
      seen.add(bridge.pid);
      return { config, bridge, name: basename(bridge.socket, ".sock") };
    };
    const seen = new Set<number>();
    const files = (name: string) =>
      readdirSync(world.socketDir)
        .filter((f) => f.startsWith(`${name}.`))
        .map((f) => f.slice(name.length))
        .sort();
    const dead = await start(60);
    const alive = await start(61);
    process.kill(dead.bridge.pid, "SIGKILL");
    await waitFor(() => dead.bridge.pids.every(gone), 10_000, { what: "the killed tree gone" });
    expect(files(dead.name)).toEqual([".ctl", ".lock", ".log", ".sock"]);
    const deadLog = readFileSync(join(world.socketDir, `${dead.name}.log`), "utf8");
    expect(deadLog).toContain(`shared bridge ${dead.bridge.pid} serving`);

    await start(62); // sweeps: the dead one's sockets and lock go, its log is kept
    expect(files(dead.name)).toEqual([".log.1"]);
    expect(readFileSync(join(world.socketDir, `${dead.name}.log.1`), "utf8")).toBe(deadLog);
    expect(files(alive.name)).toEqual([".ctl", ".lock", ".log", ".sock"]);

    await start(63); // the next sweep: kept once, gone now
    expect(files(dead.name)).toEqual([]);
    expect(files(alive.name)).toEqual([".ctl", ".lock", ".log", ".sock"]);
  });

  test("a bridge started again keeps the log of the one before it as .log.1", async () => {
    const { config } = fakeWorkspace();
    expect((await world.run(["call", "session_status", "--config", config])).code).toBe(0);
    const first = await world.only();
    process.kill(first.pid, "SIGKILL");
    await waitFor(() => first.pids.every(gone), 10_000, { what: "the killed tree gone" });
    expect((await world.run(["call", "session_status", "--config", config])).code).toBe(0);
    const { log } = daemonFiles(first.socket);
    expect(readFileSync(`${log}.1`, "utf8")).toContain(`shared bridge ${first.pid} serving`);
    expect(readFileSync(log, "utf8")).not.toContain(`shared bridge ${first.pid} serving`);
  });
});

describe("attach", () => {
  test("while another holds the lock, a client waits on events: it checks again only when something happens", async () => {
    const { config } = fakeWorkspace();
    // learn the bridge's files, then stop it
    expect((await world.run(["call", "session_status", "--config", config])).code).toBe(0);
    const { socket, lock } = daemonFiles((await world.only()).socket);
    const stop = await world.run(["daemon", "stop"]);
    expect(JSON.parse(stop.out).stopped).toEqual([expect.objectContaining({ exited: true })]);
    // the stopped bridge's children let go of the lock as they end, a moment after it
    const held = await waitForValue(() => holdLock(lock) ?? undefined, 10_000, {
      what: "the stopped bridge's lock let go",
    });
    const inotify = Inotify.open();
    if ("error" in inotify) throw new Error(inotify.error);
    let released = false;
    try {
      expect(typeof inotify.addWatch(lock, IN_OPEN)).toBe("number");
      let opens = 0;
      const count = () => {
        opens += inotify.drain().filter((e) => (e.mask & IN_OPEN) !== 0).length;
        return opens;
      };
      const call = world.run(["call", "session_status", "--config", config]);
      await waitFor(() => count() >= 1, 20_000, { what: "the client's look at the lock" });
      // An observation window: a poll shows over time only. The event wait opens the
      // lock once more (after its watch is set), a 20 ms poll fifty times a second.
      const polled = await waitForValue(() => (count() >= 5 ? opens : undefined), 1000).catch(
        () => undefined,
      );
      expect(polled).toBeUndefined();
      expect(existsSync(socket)).toBe(false);
      closeSync(held); // the event: the client starts the bridge at once
      released = true;
      const r = await call;
      expect(r.code).toBe(0);
      expect(count()).toBeLessThan(5 + 3);
    } finally {
      if (!released) closeSync(held);
      inotify.close();
    }
  });
});
