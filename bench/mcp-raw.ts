/**
 * A raw newline-delimited JSON-RPC client for the compiled bridge's MCP stdio. The
 * benchmarks time the bridge, not a client library: this client only writes one line per
 * request and matches response ids, so its own cost is a JSON.parse per message. The MCP
 * SDK client is kept out on purpose (it validates every result against the tool's output
 * schema, which would be counted as bridge time).
 */

import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import type { Subprocess } from "bun";
import { killOnInterrupt } from "./interrupt.ts";

export interface RpcReply {
  result?: unknown;
  error?: { code: number; message: string };
  /** performance.now() when the reply line was parsed */
  at: number;
}

export interface ToolReply {
  isError: boolean;
  structured: Record<string, unknown>;
  /** milliseconds from writing the request to parsing the reply */
  ms: number;
  /** performance.now() when the reply was parsed */
  at: number;
}

export interface RawMcpOptions {
  binary: string;
  args: string[];
  env?: Record<string, string>;
  /** working directory of the bridge (zero-config serves it) */
  cwd?: string;
  /** "ignore" sends the program's stderr to /dev/null (default: kept, tail readable) */
  stderr?: "pipe" | "ignore";
  /** bound on one request, ending in an error (default 180 s) */
  requestTimeoutMs?: number;
  /** run after the program's tree is killed when the benchmark is interrupted */
  afterInterrupt?: () => void;
  /** through the shared bridge (SPEC §2.2); by default a dedicated one (`--isolated`) */
  shared?: boolean;
}

type Pending = { resolve: (r: RpcReply) => void; reject: (e: Error) => void };

export class RawMcpClient {
  readonly proc: Subprocess<"pipe", "pipe", "pipe" | "ignore">;
  /** performance.now() just before the spawn */
  readonly spawnedAt: number;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private stderrText = "";
  private stderrWatchers: { pattern: RegExp; resolve: (at: number) => void }[] = [];
  private readonly timeoutMs: number;
  readonly closed: Promise<void>;
  private readonly unregister: () => void;

  constructor(opts: RawMcpOptions) {
    this.timeoutMs = opts.requestTimeoutMs ?? 180_000;
    this.spawnedAt = performance.now();
    this.proc = Bun.spawn([opts.binary, ...opts.args, ...(opts.shared ? [] : ["--isolated"])], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: opts.stderr ?? "pipe",
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/", ...(opts.env ?? {}) },
      ...(opts.cwd === undefined ? {} : { cwd: opts.cwd }),
    });
    this.unregister = killOnInterrupt(this.proc.pid, opts.afterInterrupt);
    this.closed = this.readLines();
    if (opts.stderr !== "ignore") void this.readStderr();
  }

  get pid(): number {
    return this.proc.pid;
  }

  stderr(): string {
    return this.stderrText;
  }

  /** performance.now() of the stderr chunk with which the stderr text first matches `pattern`. */
  stderrMatch(pattern: RegExp): Promise<number> {
    return new Promise((resolve) => {
      if (pattern.test(this.stderrText)) resolve(performance.now());
      else this.stderrWatchers.push({ pattern, resolve });
    });
  }

  private async readStderr(): Promise<void> {
    const decoder = new TextDecoder();
    const stderr = this.proc.stderr;
    if (stderr === undefined) return;
    for await (const chunk of stderr) {
      const at = performance.now();
      this.stderrText += decoder.decode(chunk, { stream: true });
      this.stderrWatchers = this.stderrWatchers.filter((w) => {
        if (!w.pattern.test(this.stderrText)) return true;
        w.resolve(at);
        return false;
      });
      // keep the tail only: a debug-level bridge can write a lot
      if (this.stderrText.length > 1 << 20) this.stderrText = this.stderrText.slice(-(1 << 19));
    }
  }

  private async readLines(): Promise<void> {
    const decoder = new TextDecoder();
    let buffered = "";
    for await (const chunk of this.proc.stdout) {
      buffered += decoder.decode(chunk, { stream: true });
      let nl = buffered.indexOf("\n");
      while (nl >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line.trim() !== "") this.onLine(line);
        nl = buffered.indexOf("\n");
      }
    }
    const gone = new Error(
      `bridge closed its stdout; stderr tail:\n${this.stderrText.slice(-2000)}`,
    );
    for (const p of this.pending.values()) p.reject(gone);
    this.pending.clear();
  }

  private onLine(line: string): void {
    const at = performance.now();
    const msg = JSON.parse(line) as {
      id?: number;
      method?: string;
      result?: unknown;
      error?: RpcReply["error"];
    };
    if (msg.method !== undefined) {
      // A request from the server: this client declares no capabilities, so refuse it.
      if (msg.id !== undefined) {
        this.write({
          jsonrpc: "2.0",
          id: msg.id,
          error: { code: -32601, message: "not supported" },
        });
      }
      return;
    }
    if (typeof msg.id !== "number") return;
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    const reply: RpcReply = { at };
    if ("result" in msg) reply.result = msg.result;
    if (msg.error !== undefined) reply.error = msg.error;
    p.resolve(reply);
  }

  private write(message: object): void {
    this.proc.stdin.write(`${JSON.stringify(message)}\n`);
    this.proc.stdin.flush();
  }

  /** Send a request; the reply carries the time it was parsed. */
  request(method: string, params: unknown): Promise<RpcReply> {
    const id = this.nextId++;
    return new Promise<RpcReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} not answered within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending.set(id, {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.write({ jsonrpc: "2.0", id, method, params });
    });
  }

  notify(method: string, params?: unknown): void {
    this.write({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
  }

  /** The MCP handshake: initialize, then notifications/initialized. Returns the reply. */
  async initialize(clientName = "theodolite-bench"): Promise<RpcReply> {
    const reply = await this.request("initialize", {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: clientName, version: "1.0.0" },
    });
    if (reply.error) throw new Error(`initialize failed: ${reply.error.message}`);
    this.notify("notifications/initialized");
    return reply;
  }

  async callTool(name: string, args: Record<string, unknown> = {}): Promise<ToolReply> {
    const start = performance.now();
    const reply = await this.request("tools/call", { name, arguments: args });
    if (reply.error) throw new Error(`${name}: JSON-RPC error ${reply.error.message}`);
    const r = reply.result as {
      isError?: boolean;
      structuredContent?: Record<string, unknown>;
      content?: { text?: string }[];
    };
    // an error's envelope is its text content (SPEC §4.6)
    const text = r.content?.[0]?.text;
    return {
      isError: r.isError === true,
      structured: r.isError === true && text ? JSON.parse(text) : (r.structuredContent ?? {}),
      ms: reply.at - start,
      at: reply.at,
    };
  }

  /** callTool that throws on a tool error (benchmarks only time successful calls). */
  async callOk(name: string, args: Record<string, unknown> = {}): Promise<ToolReply> {
    const r = await this.callTool(name, args);
    if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.structured)}`);
    return r;
  }

  /** SIGKILL the bridge by pid (its supervisors then reap their trees, SPEC §9.2). */
  kill(): void {
    try {
      this.proc.kill("SIGKILL");
    } catch {
      // already gone
    }
  }

  /**
   * Close stdin (transport EOF: the bridge shuts its sessions down) and wait for the exit,
   * bounded by `graceMs`; past it the bridge is killed.
   */
  async close(graceMs = 10_000): Promise<void> {
    try {
      this.proc.stdin.end();
    } catch {
      // already closed
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([this.proc.exited, bound]);
    clearTimeout(timer);
    this.kill();
    this.unregister();
  }
}
