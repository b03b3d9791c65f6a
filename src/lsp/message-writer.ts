/**
 * What the bridge sends a server, bounded (SPEC §8.2), in place of vscode-jsonrpc's
 * WriteableStreamMessageWriter: messages are written one at a time, in order, and the rest
 * wait; a server that stops reading its stdin would make them grow with every call and
 * every answer. Each message weighs its bytes in UTF-8, escapes included, known when it is
 * handed over (outgoing.ts). It is made then, except the long strings it carries (documents'
 * texts), escaped piece by piece at its turn: a document that waits costs only its text.
 *
 * Past MAX_PENDING_BYTES, made bytes never wait: the writer fails. Bytes not made yet (a
 * burst of large documents) may wait past it while the server takes what is written; once
 * more than the bound waits and the server took nothing for STALL_MS, the writer fails. A
 * failed writer is the server breaking the protocol: its tree is stopped. Escaping makes
 * garbage as fast as the pipe takes it: a young collection after every COLLECT_BYTES keeps
 * it from piling up beside the texts. The queue, the bound and the stall watch are the
 * backlog the client's output keeps too (src/write-backlog.ts).
 */
import { AbstractMessageWriter, type Message, type MessageWriter, type RAL } from "vscode-jsonrpc";
import { WriteBacklog } from "../write-backlog.ts";
import { type Outgoing, outgoing, stringPieces } from "./outgoing.ts";

/** SPEC §8.2: bytes of messages waiting to be written to one server, at most. */
export const MAX_PENDING_BYTES = 64 * 1024 * 1024;
/** SPEC §8.2: past the bound, the server takes something within this, or it does not read. */
export const STALL_MS = 5000;
const COLLECT_BYTES = 8 * 1024 * 1024;

/** What a message weighs: the bytes of its JSON in UTF-8, found without making the JSON. */
export function messageBytes(msg: Message): number {
  return outgoing(msg).bytes;
}

export class BoundedMessageWriter extends AbstractMessageWriter implements MessageWriter {
  /** bytes of the messages not written yet (the backlog's), and of those made */
  private readonly backlog: WriteBacklog;
  private made = 0;
  private failure: Error | undefined;
  private errorCount = 0;
  /** bytes of long strings escaped since the last collection */
  private escaped = 0;

  constructor(
    private readonly writable: RAL.WritableStream,
    private readonly maxPending: number = MAX_PENDING_BYTES,
    stallMs: number = STALL_MS,
    /** a young collection of what escaping left */
    private readonly collect: () => void = () => Bun.gc(false),
  ) {
    super();
    this.backlog = new WriteBacklog(maxPending, stallMs, () => {
      if (this.failure === undefined) this.fail();
    });
    writable.onError((error) => this.fireError(error));
    writable.onClose(() => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    let body: Outgoing;
    try {
      body = outgoing(msg);
    } catch (err) {
      this.fireError(err, msg, ++this.errorCount);
      return Promise.reject(err);
    }
    const { bytes, made } = body;
    // one message alone always goes (its size is its sender's bound)
    const pending = this.backlog.pending;
    const overMade = this.made > 0 && this.made + made > this.maxPending;
    const over = pending > 0 && pending + bytes > this.maxPending;
    if (overMade || (over && this.backlog.stalled())) {
      this.fail(msg);
      return Promise.reject(this.failure);
    }
    this.made += made;
    return this.backlog
      .enqueue(bytes, () => this.send(msg, body))
      .finally(() => {
        this.made -= made;
      });
  }

  end(): void {
    this.backlog.end();
    this.writable.end();
  }

  private async send(msg: Message, body: Outgoing): Promise<void> {
    try {
      await this.take(`Content-Length: ${body.bytes}\r\n\r\n`);
      let written = 0;
      for (const part of body.parts) {
        const long = !Buffer.isBuffer(part);
        for (const piece of long ? stringPieces(part.long) : [part]) {
          written += piece.length;
          await this.take(piece);
          if (long) this.escapedPiece(piece.length);
        }
      }
      // the header promised the size: a message that differs would break the framing
      if (written !== body.bytes) {
        this.failure = new Error(`a message of ${written} bytes was announced as ${body.bytes}`);
        throw this.failure;
      }
    } catch (err) {
      this.fireError(err, msg, ++this.errorCount);
      throw err;
    }
  }

  private async take(data: string | Uint8Array): Promise<void> {
    await (typeof data === "string"
      ? this.writable.write(data, "ascii")
      : this.writable.write(data));
    this.backlog.took();
  }

  private escapedPiece(bytes: number): void {
    this.escaped += bytes;
    if (this.escaped < COLLECT_BYTES) return;
    this.escaped = 0;
    this.collect();
  }

  private fail(msg?: Message): void {
    this.failure = new Error(
      `the server does not read its input: more than ${this.maxPending} bytes of messages wait for it`,
    );
    this.fireError(this.failure, msg, 1);
  }
}
