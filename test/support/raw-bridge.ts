/**
 * The compiled bridge driven over raw stdio, for what an SDK client hides (SPEC §2, §4.8,
 * §9.2): any bytes in, every stdout line checked to be one JSON-RPC 2.0 message (stdout
 * carries only the protocol), every request answered within a bound or the test fails,
 * latencies kept, and the process itself in reach — its stdin EOF, its exit code, our end
 * of its stdout closed.
 */
import { type Subprocess, spawn } from "bun";
import type { ChunkReader } from "../../src/mcp/transport/stdio.ts";
import { ensureBinary } from "./bridge.ts";
import { within } from "./wait.ts";

export type Message = Record<string, unknown> & {
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
};

export interface ToolAnswer {
  ms: number;
  /** a tool error, or a JSON-RPC error instead of a result */
  isError: boolean;
  /** the error envelope's code for a tool error, else undefined */
  code: string | undefined;
  /** structuredContent of a result, the envelope of a tool error (SPEC §4.6) */
  structured: Record<string, unknown>;
  response: Message;
}

function envelopeOf(result: Record<string, unknown>): Record<string, unknown> {
  const text = (result.content as { text?: string }[] | undefined)?.[0]?.text ?? "{}";
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { code: "(not an envelope)", message: text };
  }
}

const open = new Set<RawBridge>();

/** An MCP client's `initialize` params, as `name`. */
export const initializeParams = (name: string) => ({
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name, version: "1" },
});

export class RawBridge {
  /** every JSON-RPC 2.0 message the bridge wrote, in order */
  readonly lines: Message[] = [];
  /** stdout lines that were not a JSON-RPC 2.0 message */
  readonly notJsonRpc: string[] = [];
  stderr = "";
  /** the longest request so far, in ms */
  maxMs = 0;
  readonly pid: number;
  /** the exit code, once the process has ended */
  readonly exited: Promise<number>;
  private readonly reader: ChunkReader;
  private readonly waiters = new Map<unknown, (m: Message) => void>();
  /** above the ids tests write by hand, so an answer is never taken for another */
  private nextId = 1000;

  private constructor(private readonly proc: Subprocess<"pipe", "pipe", "pipe">) {
    this.pid = proc.pid;
    this.exited = proc.exited;
    this.reader = proc.stdout.getReader();
    void this.pump();
    void (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of proc.stderr) this.stderr += decoder.decode(chunk, { stream: true });
    })();
  }

  /** The bridge on `config`, not initialized yet; closed by `closeRawBridges()`. */
  static spawn(config: string, env: Record<string, string> = {}): RawBridge {
    const proc = spawn([ensureBinary(), "--config", config, "--isolated"], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/", ...env },
    });
    const bridge = new RawBridge(proc);
    open.add(bridge);
    return bridge;
  }

  /** The bridge on `config` after a successful `initialize` as `clientName`. */
  static async start(config: string, clientName = "hostile"): Promise<RawBridge> {
    const bridge = RawBridge.spawn(config);
    const init = await bridge.initialize(clientName, { timeoutMs: 15_000 });
    if (init.error) throw new Error(`initialize failed: ${init.error.message}`);
    return bridge;
  }

  private async pump(): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await this.reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          this.onLine(line);
        }
      }
    } catch {
      // cancelled by the test (closing our end of the bridge's stdout)
    }
    if (buffer.length > 0) this.notJsonRpc.push(buffer);
  }

  private onLine(line: string): void {
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      this.notJsonRpc.push(line);
      return;
    }
    if (msg === null || typeof msg !== "object" || (msg as Message).jsonrpc !== "2.0") {
      this.notJsonRpc.push(line);
      return;
    }
    const message = msg as Message;
    this.lines.push(message);
    if (!("method" in message) && message.id !== undefined && message.id !== null) {
      this.waiters.get(message.id)?.(message);
      this.waiters.delete(message.id);
    }
  }

  /** Write bytes to the bridge's stdin in 1 MiB pieces, waiting for the pipe. */
  async writeRaw(text: string): Promise<void> {
    const step = 1 << 20;
    for (let i = 0; i < text.length; i += step) {
      this.proc.stdin.write(text.slice(i, i + step));
      await this.proc.stdin.flush();
    }
  }

  send(msg: unknown): Promise<void> {
    return this.writeRaw(`${JSON.stringify(msg)}\n`);
  }

  notify(method: string, params?: unknown): Promise<void> {
    return this.send({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
  }

  /** The answer to request `id` (received already or to come); rejects after `timeoutMs`. */
  answer(id: unknown, timeoutMs = 20_000): Promise<Message> {
    const got = this.lines.find((m) => m.id === id && !("method" in m));
    if (got) return Promise.resolve(got);
    const answered = new Promise<Message>((resolve) => this.waiters.set(id, resolve));
    return within(answered, timeoutMs, `the answer to ${JSON.stringify(id)}`);
  }

  /** One request; rejects when it is not answered within `timeoutMs`. */
  async request(method: string, params?: unknown, timeoutMs = 20_000): Promise<Message> {
    const id = this.nextId++;
    const started = performance.now();
    await this.send({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
    const response = await this.answer(id, timeoutMs);
    this.maxMs = Math.max(this.maxMs, performance.now() - started);
    return response;
  }

  /**
   * `initialize` as `name`, then `notifications/initialized` (unless `initialized` is
   * false); the answer, error or not.
   */
  async initialize(
    name: string,
    { initialized = true, timeoutMs = 20_000 } = {},
  ): Promise<Message> {
    const r = await this.request("initialize", initializeParams(name), timeoutMs);
    if (initialized) await this.notify("notifications/initialized");
    return r;
  }

  async call(name: string, args: unknown, timeoutMs = 20_000): Promise<ToolAnswer> {
    const started = performance.now();
    const response = await this.request("tools/call", { name, arguments: args }, timeoutMs);
    const ms = performance.now() - started;
    const result = response.result ?? {};
    const isError = result.isError === true || response.error !== undefined;
    let structured = (result.structuredContent ?? {}) as Record<string, unknown>;
    if (result.isError === true) structured = envelopeOf(result);
    const code = result.isError === true ? (structured.code as string | undefined) : undefined;
    return { ms, isError, code, structured, response };
  }

  /** A ping answered within `timeoutMs` (else it rejects); its round trip in ms. */
  async ping(timeoutMs = 5_000): Promise<number> {
    const started = performance.now();
    const r = await this.request("ping", {}, timeoutMs);
    if (r.error) throw new Error(`ping failed: ${r.error.message}`);
    return performance.now() - started;
  }

  alive(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** EOF on the bridge's stdin. */
  endStdin(): void {
    try {
      this.proc.stdin.end();
    } catch {
      // already closed
    }
  }

  /** Close our end of the bridge's stdout: its next write fails with EPIPE. */
  async closeItsStdout(): Promise<void> {
    await this.reader.cancel();
  }

  /** stdin EOF, then wait for the exit (bounded); SIGKILL if it does not come. */
  async close(): Promise<void> {
    open.delete(this);
    this.endStdin();
    try {
      await within(this.exited, 10_000, "the bridge to exit");
    } catch {
      this.proc.kill("SIGKILL");
      await this.exited;
    }
  }
}

/** For afterEach: close every bridge a test left open, even on failure. */
export async function closeRawBridges(): Promise<void> {
  await Promise.all([...open].map((b) => b.close()));
}
