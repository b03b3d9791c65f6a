/**
 * `theodolite call TOOL [JSON-ARGS]` (SPEC §2.2): one tool call for hooks and gates,
 * through the shared bridge (started if need be) or, with `--isolated`, a dedicated
 * one run for this call. The tool's JSON result goes to stdout and the exit is 0; a
 * typed tool error puts its envelope on stderr and exits 1; usage and configuration
 * exit 2. `--format sarif` turns a `diagnostics` result into SARIF 2.1.0. The
 * client's name is `theodolite-call` (the gate's identity, SPEC §7.1).
 */

import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import type { Socket } from "bun";
import { bounded } from "../bounded.ts";
import { loadStart } from "../bridge.ts";
import { BridgeError, type ErrorEnvelope, toEnvelope } from "../errors.ts";
import { reexecEnv, selfCommand, spawnable } from "../process/self.ts";
import { VERSION } from "../version.ts";
import { attach, sharedTarget } from "./attach.ts";
import { configPathFor, sharedChoice } from "./mode.ts";
import { BridgeLines } from "./relay-book.ts";
import { diagnosticsToSarif } from "./sarif.ts";
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

function usage(message: string): BridgeError {
  return new BridgeError("InvalidArgument", message, {
    hint: 'theodolite call TOOL \'{"file":"src/x.ts"}\' [--format json|sarif] [--config FILE] [--isolated]',
  });
}

/** The arguments as a JSON object, or a usage error (pure). */
export function parseToolArgs(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw usage(`JSON-ARGS is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw usage("JSON-ARGS must be a JSON object");
  return value as Record<string, unknown>;
}

/** The line channel to a bridge; `onmessage` gets every parsed line, `onend` its end. */
async function openChannel(
  opts: CallOptions,
  onmessage: (m: Record<string, unknown>) => void,
  onend: () => void,
): Promise<Channel> {
  const lines = new BridgeLines();
  const take = (chunk: Uint8Array): void => {
    for (const line of lines.push(new Uint8Array(chunk))) {
      try {
        onmessage(JSON.parse(Buffer.from(line).toString("utf8")) as Record<string, unknown>);
      } catch {
        // a line that is not JSON answers nothing we asked
      }
    }
  };
  const start = await loadStart(opts.config);
  if (sharedChoice(opts.isolated, start.config).shared) {
    const cwd = process.cwd();
    const target = sharedTarget(start.config, configPathFor(opts.config, process.env, cwd), cwd);
    const holder: { out?: SocketOutput } = {};
    const socket: Socket<undefined> = await attach<undefined>(target, {
      data: (_s, chunk) => take(chunk),
      drain: () => holder.out?.drain(),
      close: onend,
    });
    const out = new SocketOutput(socket as Socket<unknown>);
    holder.out = out;
    return {
      send: (m) => out.write(`${JSON.stringify(m)}\n`),
      close: async () => {
        socket.end();
      },
    };
  }
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
    onend();
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
  const waiting = new Map<number, (r: Reply) => void>();
  // once the bridge closed, every question has this answer
  let closed: Reply | undefined;
  const ask = (id: number, method: string, params: unknown): Promise<Reply> =>
    new Promise((resolve) => {
      if (closed !== undefined) return resolve(closed);
      waiting.set(id, resolve);
      channel.send({ jsonrpc: "2.0", id, method, params });
    });
  try {
    args = parseToolArgs(opts.args);
    if (opts.format === "sarif" && opts.tool !== "diagnostics")
      throw usage("--format sarif goes with diagnostics only");
    channel = await openChannel(
      opts,
      (m) => {
        if (typeof m.id === "number" && !("method" in m)) waiting.get(m.id)?.(m as Reply);
      },
      () => {
        const lost = new BridgeError("SessionDead", "the bridge closed before it answered", {
          hint: "call again: the next call starts a new shared bridge",
        }).toEnvelope();
        closed = { error: { message: lost.message, data: lost } };
        for (const resolve of waiting.values()) resolve(closed);
      },
    );
  } catch (err) {
    process.stderr.write(`${JSON.stringify(toEnvelope(err))}\n`);
    return 2;
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
    process.stdout.write(`${JSON.stringify(diagnosticsToSarif(structured, VERSION))}\n`);
  } else {
    process.stdout.write(`${JSON.stringify(structured)}\n`);
  }
  return 0;
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
