/**
 * The compiled bridge driven over raw stdio for the hostile suites: every stdout line is
 * checked to be one JSON-RPC 2.0 message (SPEC §2: stdout carries only the protocol),
 * every request is answered within a bound or the test fails, and latencies are kept.
 */
import { type Subprocess, spawn } from "bun";
import { ensureBinary } from "../support/bridge.ts";
import { within } from "../support/wait.ts";

export interface RpcResponse {
  id: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

export interface ToolAnswer {
  ms: number;
  isError: boolean;
  /** the error envelope's code for a tool error, else undefined */
  code: string | undefined;
  /** structuredContent of a result, the envelope of a tool error */
  structured: Record<string, unknown>;
  response: RpcResponse;
}

function envelopeOf(result: Record<string, unknown>): Record<string, unknown> {
  const text = (result.content as { text?: string }[] | undefined)?.[0]?.text ?? "{}";
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { code: "(not an envelope)", message: text };
  }
}

export class RawBridge {
  private nextId = 1;
  private buffer = "";
  private readonly waiting = new Map<number, (r: RpcResponse) => void>();
  /** stdout lines that were not a JSON-RPC 2.0 message */
  readonly notJsonRpc: string[] = [];
  stderr = "";
  maxMs = 0;
  readonly pid: number;
  private readonly exited: Promise<number>;

  private constructor(private readonly proc: Subprocess<"pipe", "pipe", "pipe">) {
    this.pid = proc.pid;
    this.exited = proc.exited;
    void this.pump();
    void (async () => {
      for await (const chunk of proc.stderr) this.stderr += new TextDecoder().decode(chunk);
    })();
  }

  static async start(config: string, clientName = "hostile"): Promise<RawBridge> {
    const proc = spawn([ensureBinary(), "--config", config], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/" },
    });
    const bridge = new RawBridge(proc);
    open.add(bridge);
    const init = await bridge.request(
      "initialize",
      {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: clientName, version: "1" },
      },
      15_000,
    );
    if (init.error) throw new Error(`initialize failed: ${init.error.message}`);
    bridge.notify("notifications/initialized");
    return bridge;
  }

  private async pump(): Promise<void> {
    const decoder = new TextDecoder();
    for await (const chunk of this.proc.stdout) {
      this.buffer += decoder.decode(chunk, { stream: true });
      for (let nl = this.buffer.indexOf("\n"); nl >= 0; nl = this.buffer.indexOf("\n")) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        this.onLine(line);
      }
    }
    if (this.buffer.length > 0) this.notJsonRpc.push(this.buffer);
  }

  private onLine(line: string): void {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(line);
    } catch {
      this.notJsonRpc.push(line);
      return;
    }
    if (msg === null || typeof msg !== "object" || msg.jsonrpc !== "2.0") {
      this.notJsonRpc.push(line);
      return;
    }
    if (typeof msg.id === "number" && ("result" in msg || "error" in msg)) {
      this.waiting.get(msg.id)?.(msg as unknown as RpcResponse);
      this.waiting.delete(msg.id);
    }
  }

  notify(method: string, params?: unknown): void {
    this.write({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
  }

  write(msg: unknown): void {
    this.proc.stdin.write(`${JSON.stringify(msg)}\n`);
    this.proc.stdin.flush();
  }

  /** One request; rejects when it is not answered within `timeoutMs`. */
  async request(method: string, params: unknown, timeoutMs: number): Promise<RpcResponse> {
    const id = this.nextId++;
    const answered = new Promise<RpcResponse>((resolve) => this.waiting.set(id, resolve));
    const started = performance.now();
    this.write({ jsonrpc: "2.0", id, method, params });
    const response = await within(answered, timeoutMs, `${method} #${id} to be answered`);
    this.maxMs = Math.max(this.maxMs, performance.now() - started);
    return response;
  }

  async call(name: string, args: unknown, timeoutMs = 10_000): Promise<ToolAnswer> {
    const started = performance.now();
    const response = await this.request("tools/call", { name, arguments: args }, timeoutMs);
    const ms = performance.now() - started;
    const result = response.result ?? {};
    const isError = result.isError === true || response.error !== undefined;
    // a result carries structuredContent; an error only its envelope as JSON text (SPEC §4.6)
    let structured = (result.structuredContent ?? {}) as Record<string, unknown>;
    if (result.isError === true) structured = envelopeOf(result);
    const code = result.isError === true ? (structured.code as string | undefined) : undefined;
    return { ms, isError, code, structured, response };
  }

  async ping(timeoutMs = 5_000): Promise<number> {
    const started = performance.now();
    const r = await this.request("ping", {}, timeoutMs);
    if (r.error) throw new Error(`ping failed: ${r.error.message}`);
    return performance.now() - started;
  }

  alive(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** stdin EOF, then wait for the exit (bounded); SIGKILL if it does not come. */
  async close(): Promise<void> {
    open.delete(this);
    try {
      this.proc.stdin.end();
    } catch {
      // already closed
    }
    try {
      await within(this.exited, 10_000, "the bridge to exit");
    } catch {
      this.proc.kill("SIGKILL");
      await this.exited;
    }
  }
}

const open = new Set<RawBridge>();

/** For afterEach: close every bridge a test left open, even on failure. */
export async function closeRawBridges(): Promise<void> {
  await Promise.all([...open].map((b) => b.close()));
}

/** A running swapper (swapper.ts), ended by its pid. */
export interface Swapper {
  stop(): Promise<number>;
}

const swappers = new Set<Subprocess>();

/** Start exchanging `a` and `b` atomically in a loop; resolves once it runs. */
export async function startSwapper(a: string, b: string): Promise<Swapper> {
  const proc = spawn([process.execPath, `${import.meta.dir}/swapper.ts`, a, b], {
    stdout: "pipe",
    stderr: "pipe",
  });
  swappers.add(proc);
  const reader = proc.stdout.getReader();
  const first = await within(reader.read(), 10_000, "the swapper to start");
  const text = new TextDecoder().decode(first.value ?? new Uint8Array());
  if (!text.startsWith("ready")) {
    proc.kill("SIGKILL");
    throw new Error(`swapper did not start: ${text} ${await new Response(proc.stderr).text()}`);
  }
  return {
    async stop() {
      swappers.delete(proc);
      proc.kill("SIGTERM");
      let out = "";
      for (;;) {
        const { value, done } = await within(reader.read(), 10_000, "the swapper to stop");
        if (done) break;
        out += new TextDecoder().decode(value);
      }
      await proc.exited;
      return Number.parseInt(out.trim(), 10);
    },
  };
}

export function killSwappers(): void {
  for (const proc of swappers) proc.kill("SIGKILL");
  swappers.clear();
}
