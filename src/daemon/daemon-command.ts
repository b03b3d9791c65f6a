/**
 * `theodolite daemon status` and `theodolite daemon stop [ROOT]` (SPEC §2.2): the
 * shared bridges of this user, each asked through its control socket; one JSON
 * object on stdout. `stop` ends the bridges serving ROOT (all of them without
 * one) and returns once each has exited with its tree, or its bound passed.
 */
import { readdirSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { isAlive } from "../process/proctree.ts";
import { askControl, type DaemonStatus } from "./control.ts";
import { privateSocketDir } from "./socket-dir.ts";

/** How long one bridge gets to answer its control socket. */
const ASK_MS = 3000;
/** How long a stopped bridge gets to exit with its tree (its grace and kill bound, with margin). */
const STOP_BOUND_MS = 15_000;
/** Between two looks at whether a stopped bridge is gone (a liveness poll). */
const POLL_MS = 20;

export async function runningBridges(): Promise<DaemonStatus[]> {
  const dir = privateSocketDir(process.env, process.geteuid?.() ?? -1, tmpdir());
  const controls = readdirSync(dir)
    .filter((n) => n.endsWith(".ctl"))
    .sort();
  const answers = await Promise.all(
    controls.map((n) => askControl(join(dir, n), "status", ASK_MS)),
  );
  return answers.filter((a): a is DaemonStatus => a !== undefined && "pid" in a);
}

export async function daemonStatus(): Promise<string> {
  return JSON.stringify({ bridges: await runningBridges() });
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

export async function daemonStop(root: string | undefined): Promise<string> {
  const want = root === undefined ? undefined : realOrResolved(root);
  const chosen = (await runningBridges()).filter(
    (b) => want === undefined || b.roots.some((r) => realOrResolved(r) === want),
  );
  const stopped: { pid: number; roots: string[]; exited: boolean }[] = [];
  for (const bridge of chosen) {
    await askControl(bridge.socket.replace(/\.sock$/, ".ctl"), "stop", ASK_MS);
    const deadline = Date.now() + STOP_BOUND_MS;
    while (isAlive(bridge.pid) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    stopped.push({ pid: bridge.pid, roots: bridge.roots, exited: !isAlive(bridge.pid) });
  }
  return JSON.stringify({ stopped });
}
