/**
 * Connections a shared bridge refuses for its client limit (SPEC §2.2): each is told
 * why in one line (shared-errors.ts) and kept until its client, having read it, closes
 * — a connection closed at once is reset before the client can read anything — or a
 * short bound passes. At most as many wait at once as the bridge has clients; past
 * that, one more is closed at once (its client hears nothing, and waits for the bound
 * of its attach).
 */
import type { Socket } from "bun";
import { refusedLine } from "./shared-errors.ts";

/** How long a refused connection is kept for its client to read why. */
const LINGER_MS = 3000;

export class Refusals {
  private readonly waiting = new Map<Socket<unknown>, ReturnType<typeof setTimeout>>();

  constructor(private readonly limit: number) {}

  /** Tell `socket` the bridge is full; let it go when its client closes or the bound passes. */
  refuse(socket: Socket<unknown>): void {
    if (this.waiting.size >= this.limit) {
      socket.terminate();
      return;
    }
    socket.write(refusedLine(this.limit));
    this.waiting.set(
      socket,
      setTimeout(() => this.release(socket), LINGER_MS),
    );
  }

  /** Whether `socket` is a refused one (its events are no client's). */
  has(socket: Socket<unknown>): boolean {
    return this.waiting.has(socket);
  }

  /** The refused connection ended (its client closed it) or its bound passed. */
  release(socket: Socket<unknown>): void {
    const timer = this.waiting.get(socket);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.waiting.delete(socket);
    socket.terminate();
  }
}
