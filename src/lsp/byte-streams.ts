/**
 * The server's pipes as vscode-jsonrpc's runtime layer (`RAL`) expects its streams:
 * Bun's own `ReadableStream` and `FileSink` of the supervisor's stdio, without Node's
 * stream machinery between them and the library (docs/PERFORMANCE.md). The library still
 * does the framing; these only move bytes and report the end.
 */
import type { FileSink } from "bun";
import { Emitter, type RAL } from "vscode-jsonrpc";
import { endSink } from "../process/launch.ts";

/**
 * A server that writes without pause has its next chunk ready at once, and the read loop
 * would run on in microtasks: after this many bytes it yields a turn of the event loop, so
 * the client's requests (a `ping`) are read between (SPEC §8: a flood never freezes the
 * bridge). Each piece read is also counted for what it would parse into (message-reader.ts),
 * which in the interpreter tier costs most on dense input: a turn stays short.
 */
const YIELD_EVERY_BYTES = 256 * 1024;

/** The server's output as a RAL stream: one read loop, started by the first data listener. */
export function readableOf(
  stream: ReadableStream<Uint8Array>,
  /** told the size of every chunk (the collector counts what a call took in) */
  onChunk: (bytes: number) => void = () => {},
): RAL.ReadableStream {
  const data = new Emitter<Uint8Array>();
  const error = new Emitter<Error>();
  const end = new Emitter<void>();
  const close = new Emitter<void>();
  let reading = false;
  const read = async (): Promise<void> => {
    let sinceTurn = 0;
    try {
      for await (const chunk of stream) {
        onChunk(chunk.byteLength);
        // a Buffer view, as Node's streams give: the library's buffer decodes it by name
        data.fire(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        sinceTurn += chunk.byteLength;
        if (sinceTurn >= YIELD_EVERY_BYTES) {
          sinceTurn = 0;
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      end.fire();
    } catch (err) {
      error.fire(err instanceof Error ? err : new Error(String(err)));
    } finally {
      close.fire();
    }
  };
  return {
    onData(listener) {
      const subscription = data.event(listener);
      if (!reading) {
        reading = true;
        void read();
      }
      return subscription;
    },
    onError: (listener) => error.event(listener),
    onEnd: (listener) => end.event(listener),
    onClose: (listener) => close.event(listener),
  };
}

/**
 * The server's input as a RAL stream. The library writes each message as a header string
 * and then its body: the header is only queued, the body flushes both, so a message is one
 * system call; the body's promise settles when the kernel took it all (or with EPIPE once
 * the server is gone).
 */
export function writableOf(sink: FileSink): RAL.WritableStream {
  const error = new Emitter<[Error, unknown, number | undefined]>();
  const end = new Emitter<void>();
  const close = new Emitter<void>();
  return {
    write(bytes: Uint8Array | string): Promise<void> {
      try {
        if (typeof bytes === "string") {
          sink.write(bytes); // headers: ASCII, the same bytes in UTF-8
          return Promise.resolve();
        }
        sink.write(bytes);
        const flushed = sink.flush();
        return flushed instanceof Promise ? flushed.then(() => {}) : Promise.resolve();
      } catch (err) {
        return Promise.reject(err);
      }
    },
    end() {
      endSink(sink);
      end.fire();
      close.fire();
    },
    onError: (listener) => error.event(listener),
    onEnd: (listener) => end.event(listener),
    onClose: (listener) => close.event(listener),
  };
}
