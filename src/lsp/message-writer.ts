/**
 * What the bridge sends a server, bounded (SPEC §8.2), in place of vscode-jsonrpc's
 * WriteableStreamMessageWriter: messages are written one at a time, in order, and the
 * rest wait; a server that stops reading its stdin would make them grow with every call
 * and every answer. Each message is serialized once, when it is handed over, and weighs
 * what it is: its bytes — a document's text, an answer to a server's request, anything.
 * Past MAX_PENDING_BYTES waiting, the writer fails: the session takes it as the server
 * breaking the protocol, and its tree is stopped.
 */
import { AbstractMessageWriter, type Message, type MessageWriter, type RAL } from "vscode-jsonrpc";

/** SPEC §8.2: bytes of messages waiting to be written to one server, at most. */
export const MAX_PENDING_BYTES = 64 * 1024 * 1024;

/** A message as the server reads it: its JSON, in UTF-8. */
export function serialized(msg: Message): Buffer {
  return Buffer.from(JSON.stringify(msg), "utf8");
}

export class BoundedMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private pending = 0;
  private failure: Error | undefined;
  private errorCount = 0;
  /** the last write handed to the stream: the next one waits for it */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly writable: RAL.WritableStream,
    private readonly maxPending: number = MAX_PENDING_BYTES,
  ) {
    super();
    writable.onError((error) => this.fireError(error));
    writable.onClose(() => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    let body: Buffer;
    try {
      body = serialized(msg);
    } catch (err) {
      this.fireError(err, msg, ++this.errorCount);
      return Promise.reject(err);
    }
    // one message alone always goes (its size is its sender's bound)
    if (this.pending > 0 && this.pending + body.length > this.maxPending) {
      this.failure = new Error(
        `the server does not read its input: more than ${this.maxPending} bytes of messages wait for it`,
      );
      this.fireError(this.failure, msg, 1);
      return Promise.reject(this.failure);
    }
    this.pending += body.length;
    const written = this.queue
      .then(() => this.send(msg, body))
      .finally(() => {
        this.pending -= body.length;
      });
    this.queue = written.catch(() => {});
    return written;
  }

  private async send(msg: Message, body: Buffer): Promise<void> {
    try {
      await this.writable.write(`Content-Length: ${body.length}\r\n\r\n`, "ascii");
      await this.writable.write(body);
    } catch (err) {
      this.fireError(err, msg, ++this.errorCount);
      throw err;
    }
  }

  end(): void {
    this.writable.end();
  }
}
