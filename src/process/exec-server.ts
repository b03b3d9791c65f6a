/**
 * `--exec-server` (SPEC §9.2): how the supervisor starts a server with a parent-death
 * signal, with no program from outside the binary. The supervisor runs this program
 * again as `--exec-server --parent-pid N -- /abs/server ARG…`; this process asks the
 * kernel for SIGKILL when its parent dies, checks that the parent is still N (had it
 * died before the request, no signal would ever come), restores the signal state a new
 * program expects, marks every inherited descriptor above stderr close-on-exec, and
 * execve's the server with the environment the supervisor meant for it (serverEnv).
 * The pid stays: the server is the supervisor's direct child, as under `setpriv`. The
 * bridge starts its version checks the same way (check-run.ts), with itself as the parent.
 *
 * A failure is one line on stderr — the server's, whose tail the session keeps — and
 * exit 127 (126 when the server exists but cannot be executed), as a shell says it.
 */
import { readdirSync, readFileSync, writeSync } from "node:fs";
import { constants } from "node:os";
import { errnoName } from "../ffi/libc.ts";
import {
  closeOnExec,
  defaultSignalsForExec,
  execve,
  parentPid,
  setParentDeathSignal,
} from "../ffi/process.ts";
import { parseStat } from "./proctree.ts";
import { serverEnv } from "./self.ts";

export interface ExecServerArgs {
  parentPid: number;
  command: string;
  args: string[];
}

const USAGE = "usage: --exec-server --parent-pid N -- /ABS/SERVER [ARG…]";
const PREFIX = "theodolite-supervisor: ";
/** A shell's exit codes for a command it could not find or run. */
export const EXIT_CANNOT_RUN = 127;
export const EXIT_NOT_EXECUTABLE = 126;

/** The argv after `--exec-server`, as the supervisor builds it. */
export function formatExecServerArgs(a: ExecServerArgs): string[] {
  return ["--parent-pid", String(a.parentPid), "--", a.command, ...a.args];
}

/** Parse the argv after `--exec-server`; a string is the reason it is invalid. */
export function parseExecServerArgs(argv: readonly string[]): ExecServerArgs | string {
  const [flag, pid, sep, command, ...args] = argv;
  if (flag !== "--parent-pid" || pid === undefined || !/^[1-9]\d*$/.test(pid)) {
    return "missing --parent-pid N";
  }
  if (sep !== "--" || command === undefined) return "missing `-- SERVER`";
  if (!command.startsWith("/")) return "the server command must be an absolute path";
  return { parentPid: Number(pid), command, args };
}

function fail(text: string, code: number): never {
  try {
    writeSync(2, `${PREFIX}${text}\n`);
  } catch {
    // stderr gone: the exit code says it
  }
  process.exit(code);
}

/** Descriptors open here above stderr (the runtime's own, whatever it inherited). */
function inheritedDescriptors(): number[] {
  try {
    return readdirSync("/proc/self/fd")
      .map(Number)
      .filter((fd) => Number.isInteger(fd) && fd > 2);
  } catch {
    return [];
  }
}

/**
 * Our parent's pid. The init of a PID namespace has its parent outside it, where getppid()
 * gives 0: then the parent `/proc` names (its pid where the bridge runs, check-run.ts).
 */
function parentSeen(): number | undefined {
  const ppid = parentPid();
  if (ppid !== 0) return ppid ?? undefined;
  try {
    return parseStat(readFileSync("/proc/self/stat", "latin1"))?.ppid;
  } catch {
    return undefined;
  }
}

/** `--exec-server` entry point: becomes the server, or exits saying why. */
export function runExecServer(argv: string[]): never {
  const opts = parseExecServerArgs(argv);
  if (typeof opts === "string") fail(`${opts}\n${USAGE}`, 2);
  if (!setParentDeathSignal(constants.signals.SIGKILL)) {
    fail(
      `cannot set the parent-death signal for ${opts.command}: libc is unavailable through bun:ffi`,
      EXIT_CANNOT_RUN,
    );
  }
  // The parent died before the request: nobody would kill the server. Not started.
  if (parentSeen() !== opts.parentPid) fail("the supervisor is gone; not starting", 1);
  if (!defaultSignalsForExec()) fail("cannot reset the signal mask", EXIT_CANNOT_RUN);
  closeOnExec(inheritedDescriptors());
  const errno = execve(opts.command, [opts.command, ...opts.args], serverEnv(process.env));
  const name = errnoName(errno);
  const code = name === "EACCES" || name === "ENOEXEC" ? EXIT_NOT_EXECUTABLE : EXIT_CANNOT_RUN;
  fail(`cannot execute ${opts.command}: ${name}`, code);
}
