/**
 * The `--supervise` main loop (SPEC §9.2). The bridge re-executes itself as
 * `theodolite --supervise --bridge-pid N --bridge-start T --grace-ms N -- /abs/server args…`,
 * detached (it leads its own process group), as the init of the session's PID namespace
 * where the machine allows it (pid-namespace.ts). It starts the server through
 * `--exec-server` (exec-server.ts), hands it its stdin and stdout (the bridge's pipes; it
 * never touches fds 0 and 1), dies with the bridge (a parent-death signal), and kills the
 * whole tree on every path:
 * - server exit: reap, then exit mirroring the server (same code, or the same signal);
 * - lifeline EOF (fd 3, closed by the bridge for an orderly end or by the kernel when the
 *   bridge dies): give the server `--grace-ms` to exit, reap, mirror it (SIGKILL if killed);
 * - bridge gone (polled every 50 ms), or SIGTERM/SIGINT/SIGHUP: reap at once.
 * Once the server runs, this process's fd 1 names /dev/null; the final reap is one kill of
 * the namespace, or children killed round after round (contain.ts).
 */
import { closeSync, fstatSync, openSync, writeSync } from "node:fs";
import { constants } from "node:os";
import {
  disableCoreDumps,
  duplicateFd,
  restoreDefaultSignal,
  setParentDeathSignal,
} from "../ffi/process.ts";
import {
  type ChildRules,
  childrenOf,
  collectExited,
  describeKilled,
  killChildren,
  killNamespace,
} from "./contain.ts";
import { EXIT_CANNOT_RUN, formatExecServerArgs } from "./exec-server.ts";
import {
  innerPid,
  type NamespaceInit,
  namespaceInit,
  outerPidOf,
  SIGNAL_NOTE,
} from "./pid-namespace.ts";
import { removePrivateTmp } from "./private-tmp.ts";
import { isAlive, reapTree } from "./proctree.ts";
import { selfCommand, serverEnv, spawnable, supervisorEnv } from "./self.ts";
import { becomeChildSubreaper } from "./subreaper.ts";

export interface SupervisorArgs {
  bridgePid: number;
  bridgeStart: number;
  graceMs: number;
  /** the server's own TMPDIR (made by the launcher), removed with the tree (private-tmp.ts) */
  privateTmp?: string | undefined;
  command: string;
  args: string[];
}

/** First stderr line of a supervisor; launch.ts parses it. */
export const SERVER_PID_MARKER = "theodolite-supervisor: server-pid=";
/** Every line the supervisor itself writes to stderr starts so (launch.ts logs them). */
export const NOTE_PREFIX = "theodolite-supervisor: ";
/** The note of a supervisor that runs without its child subreaper (launch.ts logs it). */
export const NO_SUBREAPER = "warning: no child subreaper; a double-forked daemon could escape";
/** SPEC §9.2: the documented liveness poll of the bridge. */
export const BRIDGE_POLL_MS = 50;
/** How long the final reap may take before what is left is named (SPEC §9.2). */
const REAP_DEADLINE_MS = 3000;
/** After the tree is SIGKILLed, how long to wait for the server's exit status. */
const EXIT_STATUS_BOUND_MS = 2000;
/** The lifeline's descriptor in the supervisor: the fourth stdio entry of the bridge's spawn. */
export const LIFELINE_FD = 3;

const USAGE =
  "usage: --supervise --bridge-pid N --bridge-start T --grace-ms N [--private-tmp DIR] -- SERVER [ARG…]";

/** The argv after `--supervise`, as launch.ts builds it. */
export function formatSupervisorArgs(a: SupervisorArgs): string[] {
  return [
    "--bridge-pid",
    String(a.bridgePid),
    "--bridge-start",
    String(a.bridgeStart),
    "--grace-ms",
    String(a.graceMs),
    ...(a.privateTmp === undefined ? [] : ["--private-tmp", a.privateTmp]),
    "--",
    a.command,
    ...a.args,
  ];
}

/** Parse the argv after `--supervise`; a string is the reason it is invalid. */
export function parseSupervisorArgs(argv: string[]): SupervisorArgs | string {
  const sep = argv.indexOf("--");
  if (sep < 0 || sep === argv.length - 1) return "missing `-- SERVER`";
  const flags = new Map<string, string>();
  const head = argv.slice(0, sep);
  for (let i = 0; i < head.length; i += 2) {
    const key = head[i];
    const value = head[i + 1];
    if (key === undefined || value === undefined || !key.startsWith("--")) {
      return `malformed option near ${JSON.stringify(key)}`;
    }
    flags.set(key, value);
  }
  const int = (key: string): number | string => {
    const raw = flags.get(key);
    if (raw === undefined) return `missing ${key}`;
    const n = Number(raw);
    return /^\d+$/.test(raw) && Number.isSafeInteger(n)
      ? n
      : `${key} must be a non-negative integer`;
  };
  const bridgePid = int("--bridge-pid");
  const bridgeStart = int("--bridge-start");
  const graceMs = int("--grace-ms");
  const privateTmp = flags.get("--private-tmp");
  for (const v of [bridgePid, bridgeStart, graceMs]) if (typeof v === "string") return v;
  if (privateTmp !== undefined && !privateTmp.startsWith("/")) {
    return "--private-tmp must be an absolute path";
  }
  const command = argv[sep + 1] ?? "";
  if (!command.startsWith("/")) return "the server command must be an absolute path";
  return {
    bridgePid: bridgePid as number,
    bridgeStart: bridgeStart as number,
    graceMs: graceMs as number,
    ...(privateTmp === undefined ? {} : { privateTmp }),
    command,
    args: argv.slice(sep + 2),
  };
}

function note(text: string): void {
  try {
    writeSync(2, `${NOTE_PREFIX}${text}\n`);
  } catch {
    // stderr gone: nobody to tell
  }
}

interface ExitStatus {
  code: number | null;
  signal: string | null;
}

/** Bun reports a signal by name, but its type also allows a number. */
function signalName(signal: string | number | null): string | null {
  if (typeof signal !== "number") return signal;
  const entry = Object.entries(constants.signals).find(([, n]) => n === signal);
  return entry?.[0] ?? null;
}

/**
 * Exit the way the server did: re-raise its signal on ourselves, or exit with its code. An
 * init of a namespace ignores the signals it sends itself: it notes the signal and exits
 * 128 + its number, which the launcher reads back as the signal (pid-namespace.ts).
 */
function exitLike(status: ExitStatus | null, init: NamespaceInit | null): never {
  const signal = status?.signal ?? null;
  if (signal !== null) {
    const signo = (constants.signals as Record<string, number | undefined>)[signal];
    if (signo !== undefined && init !== null) {
      note(`${SIGNAL_NOTE}${signal}`);
      process.exit(128 + signo);
    }
    if (signo !== undefined) {
      process.removeAllListeners(signal);
      disableCoreDumps(); // a mirrored SIGSEGV must not dump a core of the supervisor
      restoreDefaultSignal(signo); // below Bun: it ignores SIGPIPE/SIGXFSZ and catches SIGTERM…
      process.kill(process.pid, signal as NodeJS.Signals);
      // A fatal default action has started the group exit before kill() returns;
      // exit_group then keeps the signal as our status. This line is only a fallback.
      process.exit(128 + signo);
    }
  }
  process.exit(status?.code ?? 1);
}

function timer(ms: number): { promise: Promise<void>; cancel: () => void } {
  let handle: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<void>((resolve) => {
    handle = setTimeout(resolve, ms);
  });
  return { promise, cancel: () => clearTimeout(handle) };
}

/** Is `fd` open as a pipe or socket (the lifeline the bridge passes)? */
function isStream(fd: number): boolean {
  try {
    const st = fstatSync(fd);
    return st.isFIFO() || st.isSocket();
  } catch {
    return false;
  }
}

/**
 * Our fd 1 is the server's stdout pipe, handed on: holding it, we would keep the pipe open
 * after the server closed its end, and the bridge would never see the server stop talking
 * (SPEC §8). It becomes /dev/null (dup2: the server's descriptor and the pipe's flags are
 * untouched); without libc it stays, and a closed stdout shows only when the server exits.
 */
function releaseServerStdout(): void {
  let devNull: number | undefined;
  try {
    devNull = openSync("/dev/null", "w");
    if (!duplicateFd(devNull, 1)) note("warning: fd 1 kept: a server's closed stdout goes unseen");
  } catch {
    // no /dev/null: fd 1 stays the pipe
  } finally {
    if (devNull !== undefined && devNull !== 1) closeSync(devNull);
  }
}

/** Resolves when the lifeline reaches EOF or fails: the bridge closed it or is gone. */
async function lifelineClosed(): Promise<void> {
  try {
    for await (const _ of Bun.file(LIFELINE_FD).stream()) {
      // the bridge never writes to it; anything read is ignored
    }
  } catch {
    // a read error means the same as EOF: the other end is gone
  }
}

type StopReason = "server-exit" | "lifeline-eof" | "urgent";

/**
 * Dies with the bridge whatever its state (SPEC §9.2): as the init of a namespace, of SIGKILL,
 * which also takes its whole namespace and reaches a stopped process; as a plain subreaper,
 * the signal is SIGCONT, which wakes a stopped supervisor to reap its tree itself (a SIGKILL
 * would leave the tree to PID 1). Had the bridge died before the request, the poll sees it.
 */
function dieWithBridge(init: NamespaceInit | null): void {
  const signal = init === null ? constants.signals.SIGCONT : constants.signals.SIGKILL;
  if (!setParentDeathSignal(signal)) note("warning: no parent-death signal");
}

/** `--supervise` entry point: never returns; the process exits mirroring the server. */
export async function runSupervisor(argv: string[]): Promise<never> {
  const opts = parseSupervisorArgs(argv);
  if (typeof opts === "string") {
    note(`${opts}\n${USAGE}`);
    process.exit(2);
  }
  if (!isStream(LIFELINE_FD)) {
    note(`no lifeline on fd ${LIFELINE_FD} (the bridge passes a pipe there)\n${USAGE}`);
    process.exit(2);
  }
  // the init of the session's own PID namespace, or a plain subreaper (pid-namespace.ts)
  const init = namespaceInit();
  if (init === null && process.pid === 1) {
    // an init whose pid in /proc is unknown would read (and kill) another process's tree
    note("pid 1 of a namespace, but /proc does not say which process this is");
    process.exit(2);
  }
  dieWithBridge(init);
  const subreaper = becomeChildSubreaper();
  const self = process.pid;
  // how /proc names us: inside a namespace, our pid outside it
  const seen = init?.outerPid ?? self;

  const env = serverEnv(process.env);
  const tmp = opts.privateTmp;
  if (tmp !== undefined) env.TMPDIR = tmp;
  let server: Bun.Subprocess<"inherit", "inherit", "inherit">;
  const exec = [
    ...selfCommand(),
    "--exec-server",
    ...formatExecServerArgs({ parentPid: self, command: opts.command, args: opts.args }),
  ];
  try {
    // The server inherits our group (we lead it), cwd, env (the launcher set them) and
    // stdio: its stdin and stdout are the bridge's pipes. Bun.spawn passes no other fd,
    // so the lifeline stays ours. `--exec-server` runs light, as we do, and hands the
    // server `env` without our JIT switches (serverEnv).
    const { cmd, argv0 } = spawnable(exec);
    server = Bun.spawn({
      cmd,
      argv0,
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
      env: supervisorEnv(env),
    });
  } catch (err) {
    note(`cannot start ${exec[0]}: ${err instanceof Error ? err.message : String(err)}`);
    if (tmp !== undefined) removePrivateTmp(tmp);
    process.exit(EXIT_CANNOT_RUN);
  }
  // the bridge reads the server in /proc: by the pid /proc gives it
  const serverSeen = init === null ? server.pid : outerPidOf(childrenOf(seen), server.pid);
  if (serverSeen !== undefined) note(`server-pid=${serverSeen}`); // must be our first stderr line
  releaseServerStdout();
  if (!subreaper) note(NO_SUBREAPER);

  const serverExit: Promise<ExitStatus> = server.exited.then(() => ({
    code: server.exitCode,
    signal: signalName(server.signalCode),
  }));

  let raiseUrgent: () => void = () => {};
  const urgent = new Promise<"urgent">((resolve) => {
    raiseUrgent = () => resolve("urgent");
  });
  for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(sig, raiseUrgent);
  const bridgeAlive = () => isAlive(opts.bridgePid, opts.bridgeStart);
  // Orphans of the tree are our children: the exited ones are collected as we poll, so a
  // daemon that re-forks all the time cannot fill the pid space with zombies. The server
  // is Bun's to collect.
  const children: ChildRules = {
    self: seen,
    waitedFor: (pid) => pid === serverSeen,
    ownGroups: [seen],
    ...(init === null ? {} : { own: innerPid }),
  };
  if (!bridgeAlive()) raiseUrgent();
  const poll = setInterval(() => {
    if (!bridgeAlive()) raiseUrgent();
    collectExited(children);
  }, BRIDGE_POLL_MS);

  const first: StopReason = await Promise.race([
    serverExit.then(() => "server-exit" as const),
    lifelineClosed().then(() => "lifeline-eof" as const),
    urgent,
  ]);
  if (first === "lifeline-eof") {
    const grace = timer(opts.graceMs);
    await Promise.race([serverExit, grace.promise, urgent]);
    grace.cancel();
  }

  // Inside our namespace one kill takes everything. Else our children, round after round
  // (contain.ts: a hopping daemon is one of them), then one scan of /proc for the group
  // and descendants, in case we are no subreaper.
  const contained =
    init === null
      ? await killChildren(children, REAP_DEADLINE_MS)
      : await killNamespace(init, children, REAP_DEADLINE_MS);
  const orphans = contained.killed.filter((k) => k.pid !== serverSeen);
  if (orphans.length > 0) note(`killed ${orphans.length} leftover: ${describeKilled(orphans)}`);
  const reaped = init === null ? await reapTree(self, self, { exclude: [self] }) : undefined;
  const remaining = [...contained.remaining, ...(reaped?.remaining ?? [])];
  if (remaining.length > 0) note(`could not kill: ${remaining.join(" ")}`);
  // nothing of the tree is left to write into it (a survivor was named above)
  const unremoved = tmp === undefined ? undefined : removePrivateTmp(tmp);
  if (unremoved !== undefined) note(unremoved);
  const statusBound = timer(EXIT_STATUS_BOUND_MS);
  const status = await Promise.race([serverExit, statusBound.promise.then(() => null)]);
  statusBound.cancel();
  clearInterval(poll);
  if (status === null) note("the server did not report an exit status");
  exitLike(status, init);
}
