/**
 * `theodolite call TOOL [JSON-ARGS]` (SPEC §2.2): one tool call for hooks and gates,
 * through the shared bridge (started if need be) or, with `--isolated`, a dedicated
 * one run for this call. The tool's JSON result goes to stdout and the exit is 0; a
 * typed tool error puts its envelope on stderr and exits 1 — so does a shared bridge
 * that fails the call (exited, unresponsive, full: the relay's envelopes); usage and
 * configuration exit 2. Every wait on the shared bridge is bounded (liveness.ts).
 * `--format sarif` turns a `diagnostics` result into SARIF 2.1.0. The client's name is
 * `theodolite-call` (the gate's identity, SPEC §7.1).
 */

import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import type { Socket } from "bun";
import { bounded } from "../bounded.ts";
import { loadStart } from "../bridge.ts";
import type { Config } from "../config/types.ts";
import { type BridgeError, type ErrorEnvelope, toEnvelope } from "../errors.ts";
import { reexecEnv, selfCommand, spawnable } from "../process/self.ts";
import { VERSION } from "../version.ts";
import { attach, sharedTarget } from "./attach.ts";
import { callUsage, dedicatedClosed, sarifColumnsUnsaid } from "./call-errors.ts";
import { QUIET_MARGIN_MS, Watchdog } from "./liveness.ts";
import { configPathFor, sharedChoice } from "./mode.ts";
import { BridgeLines } from "./relay-book.ts";
import { diagnosticsToSarif, sarifColumnKind } from "./sarif.ts";
import {
  bridgeExited,
  bridgeUnresponsive,
  isSharedBridgeError,
  refusalOf,
} from "./shared-errors.ts";
import { SocketOutput } from "./socket-stream.ts";

export const CALL_CLIENT = "theodolite-call";

export interface CallOptions {
  tool: string;
  args: string | undefined;
  format: "json" | "sarif";
  config: string | undefined;
  isolated: boolean;
}

/** A line-delimited JSON-RPC channel to a bridge. */
interface Channel {
  send(message: unknown): void;
  /** ends the conversation; resolves once a dedicated bridge has exited (bounded) */
  close(): Promise<void>;
}

/** How long a dedicated bridge gets to exit after its stdin ends (its grace and kill bound). */
const ISOLATED_EXIT_MS = 10_000;

type Reply = { result?: Record<string, unknown>; error?: { message?: string; data?: unknown } };

/** The arguments as a JSON object, or a usage error (pure). */
export function parseToolArgs(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw callUsage(`JSON-ARGS is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw callUsage("JSON-ARGS must be a JSON object");
  return value as Record<string, unknown>;
}

/** Answers the call's channel hands up: each parsed line, and the end (why, when the bridge went). */
interface ChannelEvents {
  message: (m: Record<string, unknown>) => void;
  end: (why: BridgeError) => void;
  /** whether a question waits for its answer (the shared bridge's watchdog asks) */
  waiting: () => boolean;
}

/** Parsed lines of a bridge's output; the first may be a shared bridge's refusal. */
function lineTaker(on: ChannelEvents): {
  take: (chunk: Uint8Array) => void;
  refused: () => BridgeError | undefined;
} {
  const lines = new BridgeLines();
  let first = true;
  let refused: BridgeError | undefined;
  const take = (chunk: Uint8Array): void => {
    for (const line of lines.push(new Uint8Array(chunk))) {
      if (first) {
        first = false;
        refused = refusalOf(line);
        if (refused !== undefined) continue;
      }
      try {
        on.message(JSON.parse(Buffer.from(line).toString("utf8")) as Record<string, unknown>);
      } catch {
        // a line that is not JSON answers nothing we asked
      }
    }
  };
  return { take, refused: () => refused };
}

/** The line channel to the shared bridge, its waits bounded by its watchdog (liveness.ts). */
async function sharedChannel(
  opts: CallOptions,
  config: Config,
  on: ChannelEvents,
): Promise<Channel> {
  const cwd = process.cwd();
  const target = sharedTarget(config, configPathFor(opts.config, process.env, cwd), cwd);
  const { take, refused } = lineTaker(on);
  const holder: { out?: SocketOutput; watchdog?: Watchdog } = {};
  const socket: Socket<undefined> = await attach<undefined>(target, {
    data: (s, chunk) => {
      take(chunk);
      holder.watchdog?.touch();
      if (refused() !== undefined) s.end(); // read: the bridge may let it go
    },
    drain: () => holder.out?.drain(),
    close: () => {
      holder.watchdog?.stop();
      on.end(refused() ?? bridgeExited());
    },
  });
  const out = new SocketOutput(socket as Socket<unknown>);
  holder.out = out;
  holder.watchdog = new Watchdog(
    target.files.control,
    config.bridge.request_timeout_ms + QUIET_MARGIN_MS,
    on.waiting,
    (silence) => {
      silence.drop();
      on.end(bridgeUnresponsive(silence.pid, target.files.socket));
      socket.terminate();
    },
  );
  return {
    send: (m) => {
      out.write(`${JSON.stringify(m)}\n`);
      holder.watchdog?.touch();
    },
    close: async () => {
      holder.watchdog?.stop();
      socket.end();
    },
  };
}

/** A dedicated bridge run for this call (`--isolated`), as its line channel. */
function isolatedChannel(opts: CallOptions, on: ChannelEvents): Channel {
  const { take } = lineTaker(on);
  const args = ["--isolated", ...(opts.config !== undefined ? ["--config", opts.config] : [])];
  const { cmd, argv0 } = spawnable([...selfCommand(), ...args]);
  const proc = Bun.spawn({
    cmd,
    argv0,
    // its log is not the call's output: errors only, unless asked
    env: {
      ...reexecEnv(process.env as Record<string, string>),
      THEODOLITE_LOG_LEVEL: process.env.THEODOLITE_LOG_LEVEL ?? "error",
    },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  void (async () => {
    for await (const chunk of proc.stdout) take(chunk);
    on.end(dedicatedClosed());
  })();
  return {
    send: (m) => {
      proc.stdin.write(`${JSON.stringify(m)}\n`);
      void proc.stdin.flush();
    },
    close: async () => {
      void proc.stdin.end();
      await bounded(proc.exited, ISOLATED_EXIT_MS);
      if (proc.exitCode === null) proc.kill("SIGKILL");
    },
  };
}

/** Run the call; the exit code (SPEC §2.2). */
export async function runCall(opts: CallOptions): Promise<number> {
  let args: Record<string, unknown>;
  let channel: Channel;
  let columnKind = "";
  const waiting = new Map<number, (r: Reply) => void>();
  // once the bridge closed, every question has this answer
  let closed: Reply | undefined;
  const ask = (id: number, method: string, params: unknown): Promise<Reply> =>
    new Promise((resolve) => {
      if (closed !== undefined) return resolve(closed);
      waiting.set(id, resolve);
      channel.send({ jsonrpc: "2.0", id, method, params });
    });
  const on: ChannelEvents = {
    message: (m) => {
      if (typeof m.id === "number" && !("method" in m)) {
        waiting.get(m.id)?.(m as Reply);
        waiting.delete(m.id);
      }
    },
    end: (why) => {
      if (closed !== undefined) return;
      const env = why.toEnvelope();
      closed = { error: { message: env.message, data: env } };
      for (const resolve of waiting.values()) resolve(closed);
      waiting.clear();
    },
    waiting: () => waiting.size > 0,
  };
  try {
    args = parseToolArgs(opts.args);
    if (opts.format === "sarif" && opts.tool !== "diagnostics")
      throw callUsage("--format sarif goes with diagnostics only");
    const { config } = await loadStart(opts.config);
    if (opts.format === "sarif") columnKind = sarifColumns(config);
    channel = sharedChoice(opts.isolated, config).shared
      ? await sharedChannel(opts, config, on)
      : isolatedChannel(opts, on);
  } catch (err) {
    process.stderr.write(`${JSON.stringify(toEnvelope(err))}\n`);
    // the shared bridge failing the client is the call's failure, not its usage
    return isSharedBridgeError(err) ? 1 : 2;
  }
  const hello = await ask(1, "initialize", {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: CALL_CLIENT, version: VERSION },
  });
  if (hello.error !== undefined) {
    await channel.close();
    return failed(hello);
  }
  channel.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  const reply = await ask(2, "tools/call", { name: opts.tool, arguments: args });
  await channel.close();
  if (reply.error !== undefined) return failed(reply);
  const result = reply.result ?? {};
  if (result.isError === true) {
    const content = result.content as { text?: string }[] | undefined;
    process.stderr.write(`${content?.[0]?.text ?? "{}"}\n`);
    return 1;
  }
  const structured = (result.structuredContent ?? {}) as Record<string, unknown>;
  if (opts.format === "sarif") {
    process.stdout.write(
      `${JSON.stringify(diagnosticsToSarif(structured, VERSION, columnKind))}\n`,
    );
  } else {
    process.stdout.write(`${JSON.stringify(structured)}\n`);
  }
  return 0;
}

/** SARIF's column kind for the bridge's column unit; a usage error for one SARIF has no kind for. */
function sarifColumns(config: Config): string {
  const unit = config.bridge.column_unit;
  const kind = sarifColumnKind(unit);
  if (kind === undefined) throw sarifColumnsUnsaid(unit);
  return kind;
}

/** A JSON-RPC error instead of a result: its envelope (the relay's typed one, or Internal). */
function failed(reply: Reply): number {
  const data = reply.error?.data as ErrorEnvelope | undefined;
  const env: ErrorEnvelope =
    data !== undefined && typeof data === "object" && typeof data.code === "string"
      ? data
      : { code: "Internal", message: reply.error?.message ?? "the bridge answered with an error" };
  process.stderr.write(`${JSON.stringify(env)}\n`);
  return 1;
}
