/**
 * Attach or start (SPEC §2.2): connect to the shared bridge's socket and have its
 * control socket answer `ping` (a stopped or hung bridge accepts and says nothing:
 * unresponsive). When nobody listens and this process can take the bridge's lock, it
 * starts the bridge — this binary again, `--daemon`, detached (a session of its own, so
 * the client's end is not its end) — handing it the lock as fd 3 after moving the last
 * log aside, and waits for its one-line announcement. When another holds the lock, a
 * bridge is starting or stopping: wait for the event that changes that
 * (dir-events.ts), bounded by the start bound.
 */
import { closeSync, existsSync, openSync, renameSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Socket, SocketHandler } from "bun";
import type { Config } from "../config/types.ts";
import type { ErrorEnvelope } from "../errors.ts";
import { reexecEnv, selfCommand, spawnable } from "../process/self.ts";
import type { Announcement } from "./daemon.ts";
import { BridgeFileEvents } from "./dir-events.ts";
import { type DaemonFiles, daemonFiles, holdLock, lockFree } from "./files.ts";
import { identityOf, socketName } from "./identity.ts";
import { ping } from "./liveness.ts";
import { bridgeStartFailed, bridgeUnresponsive } from "./shared-errors.ts";
import { assertPrivate, privateSocketDir } from "./socket-dir.ts";
import { announcedError } from "./start-errors.ts";

/** How long a client waits for a shared bridge to accept it. */
export const ATTACH_TIMEOUT_MS = 20_000;

export interface SharedTarget {
  files: DaemonFiles;
  /** the configuration file (absolute), or none for zero-config */
  config: string | undefined;
  cwd: string;
}

/** Connect to a Unix socket; null when nobody listens there (or it let the connection go at once). */
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

/** Run `--daemon` detached with the held lock (fd 3, HANDED_LOCK_FD); its announcement, or a BridgeError past the deadline. */
async function startDaemon(
  target: SharedTarget,
  lock: number,
  deadline: number,
): Promise<Announcement> {
  const args = ["--daemon", target.files.socket];
  if (target.config !== undefined) args.push("--config", target.config);
  const { cmd, argv0 } = spawnable([...selfCommand(), ...args]);
  // the last bridge's log is kept for post-mortem, one generation (we hold the lock)
  if (existsSync(target.files.log)) renameSync(target.files.log, `${target.files.log}.1`);
  const log = openSync(target.files.log, "w", 0o600);
  const env = reexecEnv(process.env as Record<string, string>);
  let proc: ReturnType<typeof Bun.spawn>;
  try {
    proc = Bun.spawn({
      cmd,
      argv0,
      cwd: target.cwd,
      env,
      stdio: ["ignore", "pipe", log, lock],
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
    throw bridgeStartFailed(
      target.files.log,
      line === "" ? "it exited or gave no answer" : `it said ${line.slice(0, 200)}`,
    );
  }
}

/**
 * The caller's handlers for the attempt that is current: a socket let go (its bridge did
 * not answer) closes later, and its close is not the caller's.
 */
function currentOnly<T>(handlers: SocketHandler<T>): {
  handlers: SocketHandler<T>;
  letGo: (socket: Socket<T>) => void;
} {
  let current: Socket<T> | undefined;
  const mine = (s: Socket<T>): boolean => s === current;
  return {
    handlers: {
      open: (s) => {
        current = s;
      },
      data: (s, chunk) => (mine(s) ? handlers.data?.(s, chunk) : undefined),
      drain: (s) => (mine(s) ? handlers.drain?.(s) : undefined),
      close: (s, err) => (mine(s) ? handlers.close?.(s, err) : undefined),
      error: (s, err) => (mine(s) ? handlers.error?.(s, err) : undefined),
    },
    letGo: (socket) => {
      if (current === socket) current = undefined;
      socket.terminate();
    },
  };
}

/** Whether the bridge behind a connected socket answers; if not, the socket is let go. */
async function answering<T>(
  target: SharedTarget,
  socket: Socket<T>,
  letGo: (socket: Socket<T>) => void,
): Promise<boolean> {
  const probe = await ping(target.files.control);
  if ("answer" in probe) return true;
  letGo(socket);
  if ("gone" in probe) return false; // it is closing: its lock says when it is gone
  probe.silent.drop();
  throw bridgeUnresponsive(probe.silent.pid, target.files.socket);
}

/**
 * A connection to the target's shared bridge, started if need be, with `handlers`; a
 * BridgeError when it cannot be had by `timeoutMs`, the daemon refused the
 * configuration, or the bridge does not answer.
 */
export async function attach<T>(
  target: SharedTarget,
  handlers: SocketHandler<T>,
  timeoutMs = ATTACH_TIMEOUT_MS,
): Promise<Socket<T>> {
  const deadline = Date.now() + timeoutMs;
  const dir = dirname(target.files.socket);
  assertPrivate(dir, process.geteuid?.() ?? -1);
  let events: BridgeFileEvents | undefined;
  const attempts = currentOnly(handlers);
  try {
    for (;;) {
      const socket = await connectUnix(target.files.socket, attempts.handlers);
      if (socket !== null && (await answering(target, socket, attempts.letGo))) return socket;
      if (Date.now() >= deadline)
        throw bridgeStartFailed(target.files.log, `no answer within ${timeoutMs} ms`);
      // read-only first: a waiter's check wakes no other waiter
      const lock = lockFree(target.files.lock) ? holdLock(target.files.lock) : null;
      if (lock !== null) {
        let said: Announcement;
        try {
          said = await startDaemon(target, lock, deadline);
        } finally {
          closeSync(lock); // the daemon holds it now, or it is let go
        }
        if ("error" in said) {
          throw announcedError(said.error as ErrorEnvelope);
        }
      } else if (events === undefined) {
        events = new BridgeFileEvents(dir, target.files); // then look again: nothing is missed
      } else {
        await events.next(deadline);
      }
    }
  } finally {
    events?.close();
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
