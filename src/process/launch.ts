/**
 * The bridge side of a supervised server (SPEC §9.2): re-execute this program as
 * `--supervise` in a new session (the supervisor leads its own process group) and, where the
 * machine allows it, as the init of a PID namespace of its own (pid-namespace.ts), with the
 * pipes the server will read and write as its stdin and stdout (no relay hop) and a lifeline
 * on fd 3; expose the server's stdio as Bun's own stream and sink (src/lsp/byte-streams.ts),
 * and run the shutdown ladder. Whenever the supervisor exits — on its own, or SIGKILLed by
 * anyone — the launcher scans `/proc` for what is left of its group and kills it before
 * `exited` resolves; and since the bridge is a child subreaper as well, a daemon that left
 * the group and was re-parented to the bridge is found and killed too (orphans.ts). The
 * server's own temporary directory (private-tmp.ts) is made here and named to the
 * supervisor, which removes it after its reap; the launcher removes it again once the
 * supervisor is gone.
 */
import { closeSync, existsSync, statSync, writeFileSync } from "node:fs";
import { constants } from "node:os";
import { join } from "node:path";
import type { FileSink, Subprocess } from "bun";
import { bounded } from "../bounded.ts";
import { log } from "../log.ts";
import { keepChild, reapAdoptedOrphans, releaseChild } from "./orphans.ts";
import {
  type ContainmentInfo,
  mirroredExit,
  SIGNAL_NOTE,
  spawnContained,
} from "./pid-namespace.ts";
import { makePrivateTmp, removePrivateTmp, thisProcessAsOwner } from "./private-tmp.ts";
import { readProc, reapTree } from "./proctree.ts";
import { selfCommand, spawnable, supervisorEnv } from "./self.ts";
import { startFailed } from "./server-errors.ts";
import { StderrCollector } from "./stderr-collector.ts";
import { formatSupervisorArgs, LIFELINE_FD, NO_SUBREAPER, NOTE_PREFIX } from "./supervisor.ts";

export interface ExitInfo {
  code: number | null;
  signal: string | null;
}

export interface SupervisedProcess {
  readonly supervisorPid: number;
  /** what holds the tree together: the session's own PID namespace, or the subreaper alone */
  readonly containment: ContainmentInfo;
  /**
   * The process the server should watch as its client (LSP `initialize` `processId`), by
   * the pid the server sees: the bridge, or inside a namespace, where the bridge has no
   * pid, the supervisor (its init, 1), which dies with the bridge.
   */
  readonly clientPid: number;
  /** from the supervisor's marker line; undefined if it never came. Informational: kill by supervisor, never by this pid. */
  readonly serverPid: Promise<number | undefined>;
  /** to the server (via the supervisor); a write after its death fails its flush with EPIPE */
  readonly stdin: FileSink;
  /** from the server (via the supervisor) */
  readonly stdout: ReadableStream<Uint8Array>;
  /**
   * An orderly end of input: close the server's stdin and the supervisor's lifeline.
   * The server sees EOF; the supervisor gives it its grace, then reaps the tree.
   */
  closeInput(): void;
  /** the supervisor's exit == the server's (mirrored); resolves after leftovers of its group are killed */
  readonly exited: Promise<ExitInfo>;
  /** the last STDERR_TAIL_CHARS of server stderr (UTF-16 code units), marker line excluded */
  stderrTail(): string;
  /** every complete stderr line (marker excluded), for debug logging */
  onStderrLine(cb: (line: string) => void): void;
  /**
   * SPEC §9.2 shutdown ladder, after the caller's LSP shutdown/exit, all within `graceMs`:
   * half of it for the exit; then closeInput() and the rest; then SIGKILL the supervisor
   * together with its whole tree (its namespace, or group members and descendants by
   * explicit pids), bounded too: it resolves at most `graceMs` + KILL_BOUND_MS from now,
   * whatever the tree does (an exit not seen by then is reported as SIGKILL).
   */
  terminate(
    graceMs: number,
  ): Promise<{ exit: ExitInfo; path: "exited" | "stdin_closed" | "killed" }>;
}

export interface LaunchOptions {
  /** absolute path of the server executable */
  command: string;
  args: string[];
  cwd: string;
  /** already sanitized (src/process/env.ts) */
  env: Record<string, string>;
  /** the supervisor's grace between lifeline EOF and killing the tree */
  graceMs: number;
  /** the server gets its own TMPDIR, removed with its tree (src/process/private-tmp.ts) */
  privateTmp?: boolean;
  /**
   * Files written into that TMPDIR before the server starts; `PRIVATE_DIR` in `args` names
   * it (a workspace file the server should read from a directory of the session's own).
   */
  privateFiles?: { name: string; data: Uint8Array }[];
  /** tests only: argv prefix that runs `runSupervisor` (default: selfCommand()) */
  selfArgv?: string[];
}

/** The ladder's last step: the tree's kill, then the supervisor's exit seen, each at most this. */
const KILL_REAP_MS = 500;
const KILL_EXIT_MS = 1000;
/** SPEC §9.2: what the ladder may take beyond its grace. */
export const KILL_BOUND_MS = KILL_REAP_MS + KILL_EXIT_MS;
/** After the supervisor exited and its group was reaped, how long stderr may take to close. */
const STDERR_CLOSE_BOUND_MS = 1000;

type SupervisorChild = Subprocess<"pipe", "pipe", "pipe">;

/**
 * End the server's input. A flush still pending then fails with EPIPE when the server is
 * gone, and an unhandled rejection would end the bridge: it is handled here (the server's
 * exit is reported by its process, not by its input).
 */
export function endSink(sink: FileSink): void {
  try {
    const ended = sink.end();
    if (ended instanceof Promise) ended.catch(() => {});
  } catch {
    // already closed with the process
  }
}

/** The server's own TMPDIR beneath the one its environment names, or none (said in the log). */
function privateTmpFor(opts: LaunchOptions): string | undefined {
  if (opts.privateTmp !== true) return undefined;
  const made = makePrivateTmp(opts.env.TMPDIR, thisProcessAsOwner());
  if ("dir" in made) return made.dir;
  log.warn(`${made.failed}; the server keeps the shared one`);
  return undefined;
}

function removeTmp(dir: string | undefined): void {
  const why = dir === undefined ? undefined : removePrivateTmp(dir);
  if (why !== undefined) log.warn(why);
}

function spawnSupervisor(
  opts: LaunchOptions,
  privateTmp: string | undefined,
): { child: SupervisorChild; containment: ContainmentInfo } {
  const bridgeStart = readProc(process.pid)?.startTime;
  if (bridgeStart === undefined) {
    throw startFailed("cannot read /proc/self/stat", "theodolite needs Linux with /proc", {});
  }
  if (!existsSync(opts.cwd) || !statSync(opts.cwd).isDirectory()) {
    throw startFailed(`working directory ${opts.cwd} does not exist`, "check the workspace root", {
      cwd: opts.cwd,
    });
  }
  const prefix = opts.selfArgv ?? selfCommand();
  const argv = [
    ...prefix,
    "--supervise",
    ...formatSupervisorArgs({
      bridgePid: process.pid,
      bridgeStart,
      graceMs: opts.graceMs,
      privateTmp,
      command: opts.command,
      args: opts.args,
    }),
  ];
  // our own binary may have been replaced since start (docs/TOOLCHAIN.md#the-compiled-binary-at-run-time)
  const { cmd, argv0 } = spawnable(argv);
  try {
    // the init of a PID namespace of its own, where the machine allows one (pid-namespace.ts)
    return spawnContained(
      () =>
        Bun.spawn(cmd, {
          cwd: opts.cwd,
          env: supervisorEnv(opts.env),
          detached: true, // setsid: the supervisor leads a new session and process group
          // stdin and stdout go on to the server; fd 3 is the lifeline (LIFELINE_FD)
          stdio: ["pipe", "pipe", "pipe", "pipe"],
          argv0,
        }),
      () => log.error("could not return to the bridge's own PID namespace after a spawn"),
    );
  } catch (err) {
    const hint = "is the theodolite binary intact?";
    throw startFailed(`cannot start the supervisor: ${String(err)}`, hint, { argv });
  }
}

/** What `args` say for the server's own TMPDIR (LaunchOptions.privateFiles). */
export const PRIVATE_DIR = "{private_dir}";

/** `opts` with its private files written into `tmp` and `PRIVATE_DIR` in its args naming it. */
function withPrivateFiles(opts: LaunchOptions, tmp: string | undefined): LaunchOptions {
  const files = opts.privateFiles ?? [];
  if (files.length === 0) return opts;
  if (tmp === undefined) {
    throw startFailed(
      "the server's own temporary directory could not be made for the files it reads there",
      "check that the temporary directory is writable",
      { files: files.map((f) => f.name) },
    );
  }
  for (const f of files) writeFileSync(join(tmp, f.name), f.data, { mode: 0o600 });
  return { ...opts, args: opts.args.map((a) => a.replaceAll(PRIVATE_DIR, tmp)) };
}

export function launchSupervised(options: LaunchOptions): SupervisedProcess {
  const tmp = privateTmpFor(options);
  let child: SupervisorChild;
  let containment: ContainmentInfo;
  let opts = options;
  try {
    opts = withPrivateFiles(options, tmp);
    ({ child, containment } = spawnSupervisor(opts, tmp));
  } catch (err) {
    removeTmp(tmp);
    throw err;
  }
  const supervisorPid = child.pid;
  keepChild(supervisorPid);
  const supervisorStart = readProc(supervisorPid)?.startTime;
  const stdin = child.stdin;
  const lifelineFd = child.stdio[LIFELINE_FD];
  // our end of the lifeline is a bare descriptor: closed exactly once (a number closed
  // twice could by then name another file of ours)
  let lifelineOpen = typeof lifelineFd === "number";
  const closeLifeline = (): void => {
    if (!lifelineOpen) return;
    lifelineOpen = false;
    try {
      closeSync(lifelineFd as number);
    } catch {
      // already gone with the process: nothing to signal
    }
  };
  const closeInput = (): void => {
    endSink(stdin);
    closeLifeline();
  };

  const collector = new StderrCollector();
  // the supervisor's own notes (leftovers it killed, what it could not, a degraded run)
  let signalNoted: string | undefined;
  collector.onLine((line) => {
    if (line.startsWith(NOTE_PREFIX + SIGNAL_NOTE)) {
      // the last one counts: the supervisor writes it after the tree is dead
      signalNoted = line.slice(NOTE_PREFIX.length + SIGNAL_NOTE.length);
    } else if (line.endsWith(NO_SUBREAPER)) {
      log.warn(`supervisor ${supervisorPid}: ${NO_SUBREAPER}`);
    } else if (line.startsWith(NOTE_PREFIX)) log.warn(`supervisor ${supervisorPid}: ${line}`);
  });
  const stderrClosed = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of child.stderr)
        collector.push(decoder.decode(chunk, { stream: true }));
    } catch {
      // the pipe failed: what came is kept
    } finally {
      collector.end();
    }
  })();

  const exited = (async (): Promise<ExitInfo> => {
    await child.exited;
    // a signal's name (Node's form); Bun gives a number for signals it has no name for
    const own = {
      code: child.exitCode,
      signal: child.signalCode === null ? null : String(child.signalCode),
    };
    try {
      releaseChild(supervisorPid);
      // Leftovers of the group (a SIGKILLed supervisor's daemons) die here, and so do
      // daemons that had left the group and were re-parented to the bridge.
      await reapTree(supervisorPid, supervisorPid, { rootStartTime: supervisorStart });
      await reapAdoptedOrphans();
      // the supervisor removed it after its reap, unless it was killed first
      removeTmp(tmp);
      // Every stderr writer is dead now, so close follows at once; bounded anyway
      // in case a process that escaped the tree still holds the pipe.
      await bounded(stderrClosed, STDERR_CLOSE_BOUND_MS);
    } catch {
      // whatever happened above, the exit is reported
    } finally {
      closeLifeline();
      collector.end();
    }
    // an init noted the server's signal before its exit (pid-namespace.ts)
    const init = containment.mode === "pid_namespace";
    return init ? mirroredExit(own, signalNoted, constants.signals) : own;
  })();

  let terminating: ReturnType<SupervisedProcess["terminate"]> | undefined;
  const terminate: SupervisedProcess["terminate"] = (graceMs) => {
    terminating ??= (async () => {
      const deadline = Date.now() + graceMs;
      const early = await bounded(exited, graceMs / 2);
      if (early !== undefined) return { exit: early, path: "exited" as const };
      closeInput();
      const afterEof = await bounded(exited, Math.max(0, deadline - Date.now()));
      if (afterEof !== undefined) return { exit: afterEof, path: "stdin_closed" as const };
      // One scan takes the supervisor and everything below it, including double-forked
      // daemons re-parented to it, before they can be orphaned again; in its own namespace
      // the supervisor's death alone takes everything (pid-namespace.ts).
      const reap = { rootStartTime: supervisorStart, deadlineMs: KILL_REAP_MS };
      await reapTree(supervisorPid, supervisorPid, reap);
      const killed = await bounded(exited, KILL_EXIT_MS);
      if (killed === undefined) log.warn(`supervisor ${supervisorPid}: no exit seen after SIGKILL`);
      return { exit: killed ?? { code: null, signal: "SIGKILL" }, path: "killed" as const };
    })();
    return terminating;
  };

  return {
    supervisorPid,
    containment,
    clientPid: containment.mode === "pid_namespace" ? 1 : process.pid,
    serverPid: collector.serverPid,
    stdin,
    stdout: child.stdout,
    closeInput,
    exited,
    stderrTail: () => collector.tailText(),
    onStderrLine: (cb) => collector.onLine(cb),
    terminate,
  };
}
