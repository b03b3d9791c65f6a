/**
 * The control socket of a shared bridge (SPEC §2.2), beside its MCP socket and
 * checked the same way (this user's peers only): one command line in — `status`,
 * `stop` or `ping` — one JSON line out. MCP clients never see it; `theodolite daemon
 * status|stop` and the relays use it, `ping` to learn that the bridge still answers:
 * a stopped or hung bridge's socket still accepts (the kernel's backlog), so only an
 * answer within a bound proves it alive.
 */
import type { Socket, UnixSocketListener } from "bun";
import { bounded } from "../bounded.ts";
import type { SharedBridge } from "../bridge.ts";
import { peerOf } from "../ffi/peer.ts";
import { log } from "../log.ts";
import { scanProcs, selectTree } from "../process/proctree.ts";
import type { ClientConnection } from "./connection.ts";
import type { SharedIdentity } from "./identity.ts";

/** A command longer than this is no command. */
const MAX_COMMAND_BYTES = 64;

export interface DaemonStatus {
  pid: number;
  socket: string;
  roots: string[];
  config: string;
  config_digest: string;
  binary_digest: string;
  uptime_ms: number;
  idle_seconds: number;
  clients: { name: string | null; pid: number; connected_ms: number }[];
  sessions: { workspace: string; server: string; state: string; pid: number | null }[];
  /** the bridge and every process of its tree */
  pids: number[];
}

export type ControlAnswer = DaemonStatus | { stopping: number } | { pong: number };

export function statusOf(
  shared: SharedBridge,
  id: SharedIdentity,
  socket: string,
  clients: readonly ClientConnection[],
): DaemonStatus {
  const now = Date.now();
  return {
    pid: process.pid,
    socket,
    roots: [...id.roots],
    config: shared.config.source,
    config_digest: id.configDigest,
    binary_digest: id.binaryDigest,
    uptime_ms: now - shared.startedAt,
    idle_seconds: shared.config.bridge.shared_idle_seconds,
    clients: clients.map((c) => ({
      name: c.client,
      pid: c.peerPid,
      connected_ms: now - c.openedAt,
    })),
    sessions: shared.sessions.all().map((s) => ({
      workspace: s.label.workspace,
      server: s.label.server,
      state: s.life.state,
      pid: s.process.supervisorPid ?? null,
    })),
    pids: selectTree(scanProcs(), process.pid, 0).map((p) => p.pid),
  };
}

/** Listen for control commands; each connection gets one answer and ends. */
export function serveControl(
  path: string,
  uid: number,
  answer: (command: string) => ControlAnswer,
): UnixSocketListener<{ text: string }> {
  return Bun.listen<{ text: string }>({
    unix: path,
    data: { text: "" },
    socket: {
      open: (s) => {
        s.data = { text: "" };
        const peer = peerOf(s);
        if (peer === null || peer.uid !== uid) {
          log.warn(
            `refused a control connection: ${peer === null ? "no peer credentials" : `uid ${peer.uid}`}`,
          );
          s.terminate();
        }
      },
      data: (s, chunk) => {
        s.data.text += chunk.toString("utf8");
        const newline = s.data.text.indexOf("\n");
        if (newline < 0 && s.data.text.length <= MAX_COMMAND_BYTES) return;
        const command = s.data.text.slice(0, Math.max(0, newline)).trim();
        s.end(`${JSON.stringify(answer(command))}\n`);
      },
      error: (_s, err) => log.debug(`control socket: ${String(err)}`),
    },
  });
}

/** A bridge that took the connection and has not answered: its pid, and the wait for its answer. */
export interface Silence {
  /** the listening bridge's pid (its peer credentials), or null */
  pid: number | null;
  /** settles once the bridge answers after all, or the connection closes */
  over: Promise<void>;
  /** let the connection go (over settles) */
  drop(): void;
}

/** What a control socket said: an answer, nobody there, or nothing within the bound. */
export type Probe = { answer: ControlAnswer } | { gone: true } | { silent: Silence };

/**
 * Ask a bridge's control socket, bounded: its answer; `gone` when nobody listens (a stale
 * file) or the answer is not one; `silent` past `timeoutMs`, with the connection kept
 * until the caller drops it or the bridge answers.
 */
export async function probeControl(
  path: string,
  command: string,
  timeoutMs: number,
): Promise<Probe> {
  let text = "";
  let socket: Socket<undefined> | undefined;
  let finished = (): void => {};
  const over = new Promise<void>((resolve) => {
    finished = resolve;
  });
  const answered = new Promise<Probe>((resolve) => {
    const done = (): void => {
      finished();
      try {
        resolve({ answer: JSON.parse(text) as ControlAnswer });
      } catch {
        resolve({ gone: true });
      }
    };
    Bun.connect<undefined>({
      unix: path,
      socket: {
        open: (s) => {
          s.write(`${command}\n`);
        },
        data: (_s, chunk) => {
          text += chunk.toString("utf8");
        },
        close: done,
        error: done,
      },
    }).then(
      (s) => {
        socket = s;
      },
      () => done(),
    );
  });
  const first = await bounded(answered, timeoutMs);
  if (first !== undefined) return first;
  const open = socket;
  const pid = open === undefined ? null : (peerOf(open)?.pid ?? null);
  return {
    silent: {
      pid,
      over,
      drop: () => {
        open?.terminate();
        finished();
      },
    },
  };
}

/** Ask a bridge's control socket; undefined when nobody answers it within the bound. */
export async function askControl(
  path: string,
  command: string,
  timeoutMs: number,
): Promise<ControlAnswer | undefined> {
  const probe = await probeControl(path, command, timeoutMs);
  if ("silent" in probe) probe.silent.drop();
  return "answer" in probe ? probe.answer : undefined;
}
