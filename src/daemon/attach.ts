/**
 * Attach or start (SPEC §2.2): connect to the shared bridge's socket; when nobody
 * listens and nobody holds its lock, start the bridge by running this binary again
 * with `--daemon`, detached (a session of its own, so the client's end is not its
 * end), and wait for its one-line announcement; when the lock is held, a bridge is
 * starting or stopping: connect again until the deadline. Two clients starting at
 * once end with one bridge: the lock admits one daemon, the other answers `busy`.
 */
import { closeSync, openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Socket, SocketHandler } from "bun";
import type { Config } from "../config/types.ts";
import { BridgeError, type ErrorEnvelope } from "../errors.ts";
import { reexecEnv, selfCommand, spawnable } from "../process/self.ts";
import type { Announcement } from "./daemon.ts";
import { type DaemonFiles, daemonFiles, lockFree } from "./files.ts";
import { identityOf, socketName } from "./identity.ts";
import { assertPrivate, privateSocketDir } from "./socket-dir.ts";

/** How long a client waits for a shared bridge to accept it. */
export const ATTACH_TIMEOUT_MS = 20_000;
/** Between two attempts while another process holds the lock (a liveness poll). */
const RETRY_MS = 20;
/** The tail of the daemon's log quoted when it failed to start. */
const LOG_TAIL_BYTES = 2000;

export interface SharedTarget {
  files: DaemonFiles;
  /** the configuration file (absolute), or none for zero-config */
  config: string | undefined;
  cwd: string;
}

/** Connect to a Unix socket; null when nobody listens there. */
export async function connectUnix<T>(
  path: string,
  handlers: SocketHandler<T>,
): Promise<Socket<T> | null> {
  try {
    return await Bun.connect<T>({ unix: path, socket: handlers });
  } catch {
    return null;
  }
}

function startFailed(target: SharedTarget, why: string): BridgeError {
  let tail = "";
  try {
    tail = readFileSync(target.files.log, "utf8").slice(-LOG_TAIL_BYTES);
  } catch {
    // no log: nothing to quote
  }
  return new BridgeError("Internal", `the shared bridge did not start: ${why}`, {
    hint: `see ${target.files.log}; or run with --isolated for a dedicated bridge`,
    details: tail === "" ? { log: target.files.log } : { log: target.files.log, log_tail: tail },
  });
}

/** Run `--daemon` detached; its announcement, or a BridgeError past the deadline. */
async function startDaemon(target: SharedTarget, deadline: number): Promise<Announcement> {
  const args = ["--daemon", target.files.socket];
  if (target.config !== undefined) args.push("--config", target.config);
  const { cmd, argv0 } = spawnable([...selfCommand(), ...args]);
  const log = openSync(target.files.log, "w", 0o600);
  const env = reexecEnv(process.env as Record<string, string>);
  let proc: ReturnType<typeof Bun.spawn>;
  try {
    proc = Bun.spawn({
      cmd,
      argv0,
      cwd: target.cwd,
      env,
      stdin: "ignore",
      stdout: "pipe",
      stderr: log,
      detached: true,
    });
  } finally {
    closeSync(log);
  }
  proc.unref();
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  const timer = setTimeout(() => void reader.cancel(), Math.max(0, deadline - Date.now()));
  try {
    while (!text.includes("\n")) {
      const { done, value } = await reader.read();
      if (done || value === undefined) break;
      text += Buffer.from(value).toString("utf8");
    }
  } finally {
    clearTimeout(timer);
    void reader.cancel().catch(() => {});
  }
  const line = text.split("\n")[0] ?? "";
  try {
    return JSON.parse(line) as Announcement;
  } catch {
    throw startFailed(
      target,
      line === "" ? "it exited or gave no answer" : `it said ${line.slice(0, 200)}`,
    );
  }
}

/**
 * A connection to the target's shared bridge, started if need be, with `handlers`; a
 * BridgeError when it cannot be had by `timeoutMs` (or the daemon refused the configuration).
 */
export async function attach<T>(
  target: SharedTarget,
  handlers: SocketHandler<T>,
  timeoutMs = ATTACH_TIMEOUT_MS,
): Promise<Socket<T>> {
  const deadline = Date.now() + timeoutMs;
  assertPrivate(dirname(target.files.socket), process.geteuid?.() ?? -1);
  for (;;) {
    const socket = await connectUnix(target.files.socket, handlers);
    if (socket !== null) return socket;
    if (Date.now() >= deadline) throw startFailed(target, `no answer within ${timeoutMs} ms`);
    if (lockFree(target.files.lock)) {
      const said = await startDaemon(target, deadline);
      if ("error" in said) {
        const env = said.error as ErrorEnvelope;
        throw new BridgeError(env.code, env.message, {
          ...(env.hint !== undefined ? { hint: env.hint } : {}),
          ...(env.details !== undefined ? { details: env.details } : {}),
        });
      }
    } else {
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}

/** The shared bridge a configuration belongs to for this user (SPEC §2.2); ConfigInvalid when its directory is not private. */
export function sharedTarget(
  config: Config,
  configPath: string | undefined,
  cwd: string,
): SharedTarget {
  const uid = process.geteuid?.() ?? -1;
  const dir = privateSocketDir(process.env, uid, tmpdir());
  const socket = join(dir, socketName(identityOf(config, process.env)));
  return { files: daemonFiles(socket), config: configPath, cwd };
}
