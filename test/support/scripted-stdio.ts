/**
 * The MCP stdio transport on a scripted input and a recording output, for the unit tests of
 * src/mcp/transport/stdio.ts: chunks the test pushes, and whatever the transport writes.
 */

import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import {
  type ChunkReader,
  StdioTransport,
  type StdioTransportOptions,
} from "../../src/mcp/transport/stdio.ts";
import { within } from "./wait.ts";

/** An input whose chunks the test pushes; end() is EOF. */
export class ScriptedInput implements ChunkReader {
  private queue: Uint8Array[] = [];
  private ended = false;
  private waiter: (() => void) | undefined;
  /** a read() is waiting with nothing queued: the reader has taken everything pushed */
  private starved = false;
  private starvedWaiters: (() => void)[] = [];
  cancelled = false;

  push(text: string | Uint8Array): void {
    this.queue.push(typeof text === "string" ? new TextEncoder().encode(text) : text);
    this.wake();
  }
  end(): void {
    this.ended = true;
    this.wake();
  }
  private wake(): void {
    this.starved = false;
    this.waiter?.();
  }
  async read(): Promise<{ done: boolean; value?: Uint8Array }> {
    for (;;) {
      const value = this.queue.shift();
      if (value !== undefined) return { done: false, value };
      if (this.ended || this.cancelled) return { done: true };
      const more = new Promise<void>((resolve) => {
        this.waiter = resolve;
      });
      this.starved = true;
      for (const resolve of this.starvedWaiters.splice(0)) resolve();
      await more;
    }
  }
  /** The reader has asked for more and nothing is queued. */
  reading(): boolean {
    return this.starved;
  }
  /**
   * Resolves once the reader asks for more with nothing queued: the transport has handled
   * every chunk pushed so far (it frames and dispatches a chunk before its next read).
   */
  taken(): Promise<void> {
    if (this.starved) return Promise.resolve();
    return new Promise((resolve) => this.starvedWaiters.push(resolve));
  }
  async cancel(): Promise<void> {
    this.cancelled = true;
    this.wake();
  }
}

export class RecordingOutput {
  /** each write encoded on its own, as a real sink does (a split surrogate pair shows) */
  private chunks: Buffer[] = [];
  failWith: Error | undefined;
  write(chunk: string): number {
    if (this.failWith) throw this.failWith;
    this.chunks.push(Buffer.from(chunk, "utf8"));
    return chunk.length;
  }
  get text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
  /** while held, a flush waits for drain(): a client that does not read */
  held = false;
  private waiting: (() => void)[] = [];
  flush(): number | Promise<number> {
    if (!this.held) return 0;
    return new Promise((resolve) => this.waiting.push(() => resolve(0)));
  }
  /** The client takes what waits; flushes are waiting for it. */
  drain(): number {
    const n = this.waiting.length;
    for (const resolve of this.waiting.splice(0)) resolve();
    return n;
  }
  messages(): Record<string, unknown>[] {
    return this.text
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l));
  }
}

export async function setup(limit = 1024, options: Partial<StdioTransportOptions> = {}) {
  const input = new ScriptedInput();
  const output = new RecordingOutput();
  const transport = new StdioTransport({ input, output, maxMessageBytes: limit, ...options });
  const delivered: JSONRPCMessage[] = [];
  let closed = 0;
  transport.onmessage = (m) => delivered.push(m);
  transport.onclose = () => {
    closed++;
  };
  await transport.start();
  /** the read loop has taken and handled everything pushed so far, its answers written (bounded) */
  const settle = async () => {
    await within(input.taken(), 5_000, "the transport to take its input");
    await within(transport.written(), 5_000, "the transport to write its answers");
  };
  return { input, output, transport, delivered, closed: () => closed, settle };
}

export const line = (m: unknown) => `${JSON.stringify(m)}\n`;
