/**
 * A Bun Unix socket as the byte streams the MCP transport and the relay use: what
 * arrives is queued for one reader (reading pauses the socket past a bound, so a
 * client that floods costs its own connection's memory only, SPEC §8.2), and what is
 * written is queued until the socket takes it (Bun's `write` takes what fits and
 * returns the count; `drain` says when to go on).
 */
import type { Socket } from "bun";

/** Bytes received and not read yet past which the socket stops reading. */
const PAUSE_ABOVE_BYTES = 1024 * 1024;

/** The reading end: `push`/`end` from the socket's handlers, `read` for one consumer. */
export class SocketInput {
  private readonly chunks: Uint8Array[] = [];
  private bytes = 0;
  private ended = false;
  private paused = false;
  private wake: (() => void) | undefined;

  constructor(private readonly socket: Socket<unknown>) {}

  push(data: Uint8Array): void {
    if (this.ended) return;
    this.chunks.push(new Uint8Array(data));
    this.bytes += data.length;
    if (this.bytes > PAUSE_ABOVE_BYTES && !this.paused) {
      this.paused = true;
      this.socket.pause();
    }
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async read(): Promise<{ done: boolean; value?: Uint8Array }> {
    for (;;) {
      const value = this.chunks.shift();
      if (value !== undefined) {
        this.bytes -= value.length;
        if (this.paused && this.bytes <= PAUSE_ABOVE_BYTES / 2) {
          this.paused = false;
          this.socket.resume();
        }
        return { done: false, value };
      }
      if (this.ended) return { done: true };
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
  }

  async cancel(): Promise<void> {
    this.end();
    this.socket.end();
  }
}

/** The writing end: `write` queues, `flush` resolves once the socket took everything. */
export class SocketOutput {
  private readonly queue: Uint8Array[] = [];
  private queued = 0;
  private closed = false;
  private waiters: { resolve: (n: number) => void; reject: (e: Error) => void }[] = [];

  constructor(private readonly socket: Socket<unknown>) {}

  /** Bytes written and not taken by the socket yet. */
  get pending(): number {
    return this.queued;
  }

  write(chunk: string | Uint8Array): void {
    if (this.closed) return;
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    if (bytes.length === 0) return;
    this.queue.push(bytes);
    this.queued += bytes.length;
    if (this.queue.length === 1) this.drain();
  }

  /** The socket has room again (its `drain` handler). */
  drain(): void {
    while (this.queue.length > 0 && !this.closed) {
      const head = this.queue[0] as Uint8Array;
      const n = this.socket.write(head);
      if (n < 0) {
        this.close();
        return;
      }
      this.queued -= n;
      if (n < head.length) {
        this.queue[0] = head.subarray(n);
        return;
      }
      this.queue.shift();
    }
    if (this.queue.length === 0) for (const w of this.waiters.splice(0)) w.resolve(0);
  }

  flush(): number | Promise<number> {
    if (this.closed)
      return Promise.reject(Object.assign(new Error("socket closed"), { code: "EPIPE" }));
    if (this.queue.length === 0) return 0;
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** The socket closed: what waits is let go, and every later flush fails (EPIPE). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    this.queued = 0;
    const err = Object.assign(new Error("socket closed"), { code: "EPIPE" });
    for (const w of this.waiters.splice(0)) w.reject(err);
  }
}
