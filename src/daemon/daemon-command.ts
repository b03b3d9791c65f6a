/**
 * `theodolite daemon status` and `theodolite daemon stop [ROOT]` (SPEC §2.2): the
 * shared bridges of this user, each asked through its control socket, within a bound;
 * one JSON object on stdout. A bridge that takes the question and does not answer
 * (stopped, hung) is listed as `unresponsive` with its pid, roots (what it wrote in
 * its lock) and tree. `stop` ends the bridges serving ROOT (all of them without one)
 * and returns once each has exited with its tree, or its bound passed; it cannot ask
 * an unresponsive one, so it kills it (SIGKILL: its supervisors and servers die with it).
 */
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { isAlive, scanProcs, selectTree } from "../process/proctree.ts";
import { askControl, type DaemonStatus, probeControl } from "./control.ts";
import { daemonFiles, readLockInfo } from "./files.ts";
import { PROBE_MS } from "./liveness.ts";
import { privateSocketDir } from "./socket-dir.ts";

/** How long a stopped bridge gets to exit with its tree (its grace and kill bound, with margin). */
const STOP_BOUND_MS = 15_000;
/** Between two looks at whether a stopped bridge is gone (a liveness poll). */
const POLL_MS = 20;

/** A bridge that took the question and gave no answer. */
export interface UnresponsiveBridge {
  pid: number;
  socket: string;
  roots: string[];
  unresponsive: true;
  /** the bridge and every process of its tree, as /proc shows them */
  pids: number[];
}

type Listed = DaemonStatus | UnresponsiveBridge;

/** Whether `pid` is the daemon of `socket` (its command line says so). */
function isDaemonOf(pid: number, socket: string): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    return argv.includes("--daemon") && argv.includes(socket);
  } catch {
    return false;
  }
}

/** One bridge's status, its unresponsive entry, or undefined when nobody is there. */
async function listed(control: string): Promise<Listed | undefined> {
  const probe = await probeControl(control, "status", PROBE_MS);
  if ("answer" in probe) return "pid" in probe.answer ? probe.answer : undefined;
  if ("gone" in probe) return undefined;
  probe.silent.drop();
  const { socket, lock } = daemonFiles(control.replace(/\.ctl$/, ".sock"));
  const info = readLockInfo(lock);
  const pid = probe.silent.pid ?? info?.pid;
  if (pid === undefined || !isDaemonOf(pid, socket)) return undefined;
  const pids = selectTree(scanProcs(), pid, 0).map((p) => p.pid);
  return { pid, socket, roots: info?.roots ?? [], unresponsive: true, pids };
}

export async function runningBridges(): Promise<Listed[]> {
  const dir = privateSocketDir(process.env, process.geteuid?.() ?? -1, tmpdir());
  const controls = readdirSync(dir)
    .filter((n) => n.endsWith(".ctl"))
    .sort();
  const answers = await Promise.all(controls.map((n) => listed(join(dir, n))));
  return answers.filter((a): a is Listed => a !== undefined);
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
  const stopped: { pid: number; roots: string[]; exited: boolean; unresponsive?: true }[] = [];
  for (const bridge of chosen) {
    const unresponsive = "unresponsive" in bridge;
    if (unresponsive) process.kill(bridge.pid, "SIGKILL");
    else await askControl(daemonFiles(bridge.socket).control, "stop", PROBE_MS);
    const deadline = Date.now() + STOP_BOUND_MS;
    while (isAlive(bridge.pid) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    const exited = !isAlive(bridge.pid);
    stopped.push({
      pid: bridge.pid,
      roots: bridge.roots,
      exited,
      ...(unresponsive ? { unresponsive } : {}),
    });
  }
  return JSON.stringify({ stopped });
}
