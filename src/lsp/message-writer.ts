/**
 * What the bridge sends a server, bounded (SPEC §8): vscode-jsonrpc writes one message at
 * a time and queues the rest, so a server that stops reading its stdin would make the
 * queue grow with every call (a document's text each). Past MAX_PENDING_CHARS waiting,
 * the writer fails: the session takes it as the server breaking the protocol, and its
 * tree is stopped. The size of a message is estimated from the texts it carries, the one
 * part that can be large.
 */
import { type Message, type RAL, WriteableStreamMessageWriter } from "vscode-jsonrpc";

/** SPEC §8: characters of messages waiting to be written to one server, at most. */
export const MAX_PENDING_CHARS = 64 * 1024 * 1024;
/** What a message costs beyond its texts. */
const MESSAGE_OVERHEAD_CHARS = 256;

/** A message's weight: its document texts (didOpen, didChange), plus a fixed overhead. */
export function estimatedChars(msg: Message): number {
  const params = (msg as { params?: unknown }).params as
    | { textDocument?: { text?: unknown }; contentChanges?: unknown }
    | undefined;
  let n = MESSAGE_OVERHEAD_CHARS;
  const text = params?.textDocument?.text;
  if (typeof text === "string") n += text.length;
  if (Array.isArray(params?.contentChanges)) {
    for (const c of params.contentChanges as { text?: unknown }[]) {
      if (typeof c?.text === "string") n += c.text.length;
    }
  }
  return n;
}

export class BoundedMessageWriter extends WriteableStreamMessageWriter {
  private pending = 0;
  private failure: Error | undefined;

  constructor(
    writable: RAL.WritableStream,
    private readonly maxPending: number = MAX_PENDING_CHARS,
  ) {
    super(writable);
  }

  override async write(msg: Message): Promise<void> {
    if (this.failure) throw this.failure;
    const chars = estimatedChars(msg);
    // one message alone always goes (its size is the caller's bound)
    if (this.pending > 0 && this.pending + chars > this.maxPending) {
      this.failure = new Error(
        `the server does not read its input: more than ${this.maxPending} characters of messages wait for it`,
      );
      this.fireError(this.failure, msg, 1);
      throw this.failure;
    }
    this.pending += chars;
    try {
      await super.write(msg);
    } finally {
      this.pending -= chars;
    }
  }
}
