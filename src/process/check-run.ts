/**
 * A command the bridge runs to its end — a version check (SPEC §3, §2.1) — contained like a
 * session's tree (SPEC §9.2). It starts through `--exec-server` (parent-death SIGKILL, then
 * execve) leading a process group of its own, and, where the machine allows it, as the init
 * of a PID namespace of its own (pid-namespace.ts): when it exits or is killed, the kernel
 * kills everything it started, and it dies with the bridge. Without a namespace, its end
 * kills its group and descendants by explicit pids, and what left the group and was
 * re-parented to the bridge (a child subreaper) dies as an orphan (orphans.ts); after the
 * bridge's death only the command itself dies then (the stated limit, SPEC §9.2).
 */
import { bounded } from "../bounded.ts";
import { log } from "../log.ts";
import { formatExecServerArgs } from "./exec-server.ts";
import type { ExitInfo } from "./launch.ts";
import { keepChild, reapAdoptedOrphans, releaseChild } from "./orphans.ts";
import { type ContainmentInfo, spawnContained } from "./pid-namespace.ts";
import { readProc, reapTree } from "./proctree.ts";
import { execServerCommand, spawnable, supervisorEnv } from "./self.ts";

/** After its SIGKILL, how long the command's exit is awaited; how long a reap may take. */
const EXIT_BOUND_MS = 1000;
const REAP_BOUND_MS = 1000;

export interface CheckRun {
  /** the command's pid, as `/proc` names it */
  readonly pid: number;
  readonly containment: ContainmentInfo;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  /** the command's own exit (in its namespace: everything it started is gone by then) */
  readonly exited: Promise<ExitInfo>;
  running(): boolean;
  /**
   * The end of the check, whatever happened: the command killed if it still runs, and
   * whatever it started with it. Resolves once that is done, within about 2 s.
   */
  end(): Promise<void>;
}

/**
 * Start `argv` (an absolute path and its arguments) in `cwd` with `env` (already sanitized),
 * stdin `/dev/null`, stdout and stderr piped. Throws when it cannot be spawned.
 */
export function startCheck(
  argv: readonly string[],
  opts: { cwd: string; env: Record<string, string> },
): CheckRun {
  const [command = "", ...args] = argv;
  const exec = [
    ...execServerCommand(),
    "--exec-server",
    ...formatExecServerArgs({ parentPid: process.pid, command, args }),
  ];
  const { cmd, argv0 } = spawnable(exec);
  const { child, containment } = spawnContained(
    () =>
      Bun.spawn(cmd, {
        argv0,
        cwd: opts.cwd,
        // `--exec-server` runs light and hands the command `env` as it was (self.ts)
        env: supervisorEnv(opts.env),
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
        detached: true, // setsid: it leads a group of its own, killed whole at its end
      }),
    () => log.error("could not return to the bridge's own PID namespace after a spawn"),
  );
  const pid = child.pid;
  // in a session of its own, it is no orphan of ours while it runs
  keepChild(pid);
  const startTime = readProc(pid)?.startTime;
  const running = () => child.exitCode === null && child.signalCode === null;
  const exited = child.exited.then((): ExitInfo => {
    releaseChild(pid);
    const signal = child.signalCode === null ? null : String(child.signalCode);
    return { code: child.exitCode, signal };
  });
  let ending: Promise<void> | undefined;
  const end = (): Promise<void> => {
    ending ??= (async () => {
      // in its namespace, the init's death takes everything (pid-namespace.ts)
      if (running()) child.kill("SIGKILL");
      await bounded(exited, EXIT_BOUND_MS);
      if (containment.mode === "pid_namespace") return;
      const reap = { rootStartTime: startTime, deadlineMs: REAP_BOUND_MS };
      const left = await reapTree(pid, pid, reap);
      const orphans = await reapAdoptedOrphans();
      const killed = left.killed.length + orphans.length;
      if (killed > 0) log.debug(`version check ${pid}: killed ${killed} left behind`);
    })();
    return ending;
  };
  return {
    pid,
    containment,
    stdout: child.stdout,
    stderr: child.stderr,
    exited,
    running,
    end,
  };
}
