/**
 * A wait on one shared bridge's files in the private directory (SPEC §2.2): while
 * another process holds a bridge's lock, a client waits for the event that ends its
 * wait — the bridge's sockets made private (the daemon sets their mode once both
 * listen, the control socket's last: a socket's creation comes before it listens), or
 * the lock closed by a process that opened it for writing (a bridge or a starter that
 * exited, a sweep that let go) or removed — instead of polling. Any such event is a
 * reason to look again. Checking the lock opens it read-only, so a waiter's own
 * checks wake nobody. Without inotify (an instance limit) the wait falls back to a
 * short timer, a liveness poll. Its instance is its own, not the bridge's
 * (workspace/watch-hub.ts): it lives in the client that waits, while it waits, and reads
 * as a stream rather than by drains.
 */
import { basename } from "node:path";
import {
  IN_ATTRIB,
  IN_CLOSE_WRITE,
  IN_CREATE,
  IN_DELETE,
  IN_MOVED_TO,
  IN_ONLYDIR,
  Inotify,
  parseEvents,
} from "../ffi/inotify.ts";
import { log } from "../log.ts";
import type { DaemonFiles } from "./files.ts";

/** Between two checks when inotify cannot be had (a liveness poll, the fallback only). */
const FALLBACK_MS = 50;
const MASK = IN_CREATE | IN_MOVED_TO | IN_ATTRIB | IN_CLOSE_WRITE | IN_DELETE | IN_ONLYDIR;

export class BridgeFileEvents {
  private readonly names: Set<string>;
  private readonly inotify: Inotify | undefined;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  /** an event came that no wait has taken yet */
  private pending = false;
  private wake: (() => void) | undefined;

  /** Watch from now on: an event after this is never missed. */
  constructor(dir: string, files: DaemonFiles) {
    this.names = new Set([files.socket, files.control, files.lock].map((f) => basename(f)));
    const inotify = Inotify.open();
    if ("error" in inotify) {
      log.debug(`waiting on the shared bridge by a timer: ${inotify.error}`);
      return;
    }
    const wd = inotify.addWatch(dir, MASK);
    if (typeof wd !== "number") {
      log.debug(`waiting on the shared bridge by a timer: inotify errno ${wd.errno}`);
      inotify.close();
      return;
    }
    this.inotify = inotify;
    const reader = inotify.stream().getReader() as ReadableStreamDefaultReader<Uint8Array>;
    this.reader = reader;
    void this.read(reader);
  }

  /** Resolves once one of the bridge's files changed as above since the last wait, or at `deadline`. */
  async next(deadline: number): Promise<void> {
    if (!this.pending) {
      const left = Math.max(0, deadline - Date.now());
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        timer = setTimeout(resolve, this.reader === undefined ? Math.min(left, FALLBACK_MS) : left);
      });
      clearTimeout(timer);
    }
    this.wake = undefined;
    this.pending = false;
  }

  close(): void {
    void this.reader?.cancel().catch(() => {});
    this.inotify?.close();
  }

  private async read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || value === undefined) return;
        if (parseEvents(value, value.length).some((e) => this.names.has(e.name))) {
          this.pending = true;
          this.wake?.();
        }
      }
    } catch (err) {
      log.debug(`the shared bridges' directory events: ${String(err)}`);
    }
  }
}
