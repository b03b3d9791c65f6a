/**
 * theodolite's MCP stdio transport (SPEC §4.8), in place of the SDK's `StdioServerTransport`:
 * - newline-delimited JSON-RPC with a per-message size limit; an over-limit message is
 *   skipped in constant memory and answered (or logged when it carries no id), and the
 *   bridge keeps serving; so is one that would parse past CLIENT_JSON_BOUNDS;
 * - a structural check instead of zod on every message (jsonrpc-check.ts): anything with
 *   an id that is not a valid request gets a JSON-RPC error; a response goes up only when
 *   the protocol layer awaits its id (`awaits`);
 * - each answer serialized once (serialized.ts), written in pieces, one at a time, and
 *   counted until it has left the process (src/write-backlog.ts): past MAX_OUTPUT_BYTES
 *   the client is not read; one that takes nothing for OUTPUT_STALL_MS then is gone (§8.2);
 * - end of input calls `oninputend` (sessions shut down while calls in flight are still
 *   answered); output the client closed (EPIPE) or stopped reading closes the transport at
 *   once. Either way the shutdown path runs (SPEC §9.2) and nothing throws.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { exceeds, excessText, type JsonBounds, type JsonExcess } from "../../json-bounds.ts";
import { log } from "../../log.ts";
import { textPieces, WriteBacklog } from "../../write-backlog.ts";
import { checkMessage, type ErrorReply, errorResponse } from "./jsonrpc-check.ts";
import { LineFramer, type Oversize } from "./line-framer.ts";
import { TopLevelScanner } from "./oversize-scan.ts";
import { messagePieces } from "./serialized.ts";

/** SPEC §4.8: the largest incoming message, newline excluded. */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

/** SPEC §4.8: the deepest nesting of arrays and objects a message may have. */
export const MAX_DEPTH = 64;

/**
 * SPEC §4.8: what one client message may parse into. The SDK and the bridge walk a message
 * recursively (a 40,000-level nest overflowed the stack in the read loop); tool arguments
 * are paths, positions and names, far inside the counts.
 */
export const CLIENT_JSON_BOUNDS: JsonBounds = Object.freeze({
  depth: MAX_DEPTH,
  containers: 1 << 16,
  values: 1 << 18,
  shapes: 1 << 12,
});

/** Where a refused message's id and method are looked for first. */
const HEAD_BYTES = 64 * 1024;

/**
 * SPEC §4.8: requests waiting for their answer at most. Each holds a call's state (and a
 * server request, often); one more is answered -32000 at once, costing only itself.
 */
export const MAX_PENDING_REQUESTS = 256;
/** JSON-RPC's implementation-defined server error, for a request refused while busy. */
const SERVER_BUSY = -32000;

/**
 * Messages up to this many characters are joined and written with one `write`: every
 * write into Bun's FileSink re-arms its poll (an `epoll_ctl` system call), which cost more
 * than the copy for the small answers most calls give; larger ones go in pieces, never
 * copied whole once more.
 */
const JOIN_BELOW_CHARS = 64 * 1024;

/**
 * SPEC §8.2: bytes of answers waiting to be written to the client at most before the
 * bridge stops reading it (each answer's UTF-8 bytes and MESSAGE_COST_BYTES); an answer
 * to a request already read is queued past it. Sixty-four answers at `max_result_bytes`.
 */
export const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
/** Bytes of requests in hand (received, not answered) past which input waits (SPEC §8.2). */
export const MAX_HELD_INPUT_BYTES = 16 * 1024 * 1024;
/** SPEC §8.2: past the bound, the client takes something within this, or it does not read. */
export const OUTPUT_STALL_MS = 5000;
/** What a queued answer holds beside its text (its promises and closures), in bytes. */
export const MESSAGE_COST_BYTES = 512;
/**
 * Input is framed this much at a time, the backlog checked between: the answers the
 * transport gives at once (-32700 to a line `x`) are what one slice can make wait.
 */
const READ_SLICE_BYTES = 16 * 1024;

/** Where responses go: Bun's FileSink (`Bun.stdout.writer()`) or a test double. */
export interface OutputSink {
  write(chunk: string): unknown;
  flush(): number | Promise<number>;
}

/** What the transport uses of a ReadableStream reader (`Bun.stdin.stream().getReader()`). */
export interface ChunkReader {
  read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
  cancel(): Promise<void>;
}

export interface StdioTransportOptions {
  input: ChunkReader;
  output: OutputSink;
  maxMessageBytes?: number;
  /** MAX_OUTPUT_BYTES and OUTPUT_STALL_MS, unless a test says otherwise */
  maxOutputBytes?: number;
  outputStallMs?: number;
}

function sizeText(bytes: number): string {
  const mib = 1024 * 1024;
  if (bytes % mib === 0) return `${bytes / mib} MiB`;
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** stdin ended; without a handler the transport closes */
  oninputend?: () => void;
  /** a response was written (the collector's moment, collector.ts) */
  onanswered?: () => void;
  /** told the size of every message read (the collector counts what came in, collector.ts) */
  ontook?: (bytes: number) => void;
  /** bytes of an over-limit message were let go unparsed (the collector's other moment) */
  ondropped?: (bytes: number) => void;
  /** whether a response with this id is awaited (protocol.ts); any other is dropped */
  awaits?: (id: RequestId) => boolean;

  private readonly limit: number;
  private readonly decoder = new TextDecoder();
  private readonly framer: LineFramer;
  private started = false;
  private closed = false;
  /** requests delivered and not answered yet (drained() waits for none) */
  /** each request waiting for its answer, and the bytes it came in (held until answered) */
  private readonly unanswered = new Map<RequestId, number>();
  private heldInput = 0;
  private inputWaiters: (() => void)[] = [];
  private drainWaiters: (() => void)[] = [];
  /** answers not written yet, bounded (SPEC §8.2) */
  private readonly backlog: WriteBacklog;

  constructor(private readonly opts: StdioTransportOptions) {
    this.limit = opts.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    const bound = opts.maxOutputBytes ?? MAX_OUTPUT_BYTES;
    this.backlog = new WriteBacklog(bound, opts.outputStallMs ?? OUTPUT_STALL_MS, () =>
      this.outputStalled(),
    );
    this.framer = new LineFramer(this.limit, {
      line: (bytes) => this.onLine(bytes),
      oversize: (m) => this.onOversize(m),
      dropped: (bytes) => this.ondropped?.(bytes),
    });
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("StdioTransport already started");
    this.started = true;
    void this.readLoop(this.opts.input);
  }

  private async readLoop(reader: ChunkReader): Promise<void> {
    let why = "stdin closed";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done || value === undefined || this.closed) break;
        for (let at = 0; at < value.length && !this.closed; at += READ_SLICE_BYTES) {
          this.framer.push(value.subarray(at, at + READ_SLICE_BYTES));
          // backpressure: the client's own pipe fills while its answers wait
          if (this.backlog.over()) await this.backlog.room();
          // and past MAX_HELD_INPUT_BYTES of requests in hand, until answers free them
          while (this.heldInput > MAX_HELD_INPUT_BYTES && !this.closed)
            await new Promise<void>((r) => this.inputWaiters.push(r));
        }
        if (this.closed) break;
      }
      const pending = this.framer.pendingBytes();
      if (pending > 0)
        log.warn(`stdin ended inside a message (${pending} bytes, no newline): ignored`);
    } catch (err) {
      why = `stdin failed: ${String(err)}`;
    }
    if (this.closed) return;
    log.info(why);
    if (this.oninputend) this.oninputend();
    else await this.close();
  }

  /** One message: it costs at most itself, and nothing it holds ends the read loop. */
  private onLine(bytes: Uint8Array): void {
    this.ontook?.(bytes.length);
    const excess = exceeds(bytes, CLIENT_JSON_BOUNDS);
    if (excess !== undefined) {
      this.refuseShape(bytes, excess);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(this.decoder.decode(bytes));
    } catch (err) {
      if (bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0d)) return; // a blank line
      const why = err instanceof Error ? err.message : String(err);
      log.warn(`refused a message that is not JSON (${bytes.length} bytes): ${why}`);
      this.reply(errorResponse(null, ErrorCode.ParseError, `Parse error: ${why}`));
      return;
    }
    const checked = checkMessage(value);
    if (checked.kind === "deliver") this.deliver(checked.message, bytes.length);
    else if (checked.kind === "refuse") {
      log.warn(`refused an invalid JSON-RPC message: ${checked.why}`);
      for (const reply of checked.replies) this.reply(reply);
    } else {
      log.warn(`ignored an invalid JSON-RPC message: ${checked.why}`);
    }
  }

  private deliver(message: JSONRPCMessage, bytes = 0): void {
    if (!("method" in message)) {
      // only a response the protocol layer awaits goes up (SPEC §4.8): its roots/list
      if (message.id !== undefined && this.awaits?.(message.id) === true) this.handOver(message);
      else {
        const id = String(message.id).slice(0, 64);
        log.debug(`dropped a response to id ${id}: nothing awaits it`);
      }
      return;
    }
    if ("id" in message && this.unanswered.size >= MAX_PENDING_REQUESTS) {
      log.warn(`refused a request: ${MAX_PENDING_REQUESTS} are waiting for their answers`);
      const why = `Server busy: ${MAX_PENDING_REQUESTS} requests are waiting for their answers; send more once some are answered`;
      this.reply(
        errorResponse(message.id, SERVER_BUSY, why, { limit_requests: MAX_PENDING_REQUESTS }),
      );
      return;
    }
    this.track(message, bytes);
    this.handOver(message);
  }

  private handOver(message: JSONRPCMessage): void {
    try {
      this.onmessage?.(message);
    } catch (err) {
      // a bug below us, never the client's doing: answered, and the loop reads on
      log.error(`a message could not be handled: ${String(err)}`);
      if ("method" in message && "id" in message) {
        this.reply(errorResponse(message.id, ErrorCode.InternalError, "Internal error"));
      }
    }
  }

  /**
   * A message past CLIENT_JSON_BOUNDS, never parsed: its id is read from its bytes, from
   * the head alone where a request names its id and method first (as clients write them).
   */
  private refuseShape(bytes: Uint8Array, excess: JsonExcess): void {
    const scanner = new TopLevelScanner();
    scanner.feed(bytes.subarray(0, HEAD_BYTES));
    let facts = scanner.facts();
    if ((facts.id === undefined || !facts.hasMethod) && bytes.length > HEAD_BYTES) {
      scanner.feed(bytes.subarray(HEAD_BYTES));
      facts = scanner.facts();
    }
    const { id, hasMethod, isResponse } = facts;
    const what = `a message of ${bytes.length} bytes that ${excessText(excess)}`;
    if (id === undefined || id === null || isResponse || !hasMethod) {
      log.warn(`dropped ${what} (no request id to answer)`);
      return;
    }
    log.warn(`refused ${what} (id ${JSON.stringify(id)})`);
    this.reply(
      errorResponse(
        id,
        ErrorCode.InvalidRequest,
        `Invalid Request: the message ${excessText(excess)}`,
        { [`limit_${excess.bound}`]: excess.limit },
      ),
    );
  }

  private onOversize(m: Oversize): void {
    const what = `a message of ${m.bytes} bytes, over the ${sizeText(this.limit)} limit`;
    if (m.id === undefined || m.isResponse || !m.hasMethod) {
      log.warn(`dropped ${what} (no request id to answer)`);
      return;
    }
    log.warn(`refused ${what} (id ${JSON.stringify(m.id)})`);
    this.reply(
      errorResponse(
        m.id,
        ErrorCode.InvalidRequest,
        `Invalid Request: the message is ${m.bytes} bytes; theodolite accepts MCP messages of at most ${this.limit} bytes (${sizeText(this.limit)})`,
        { limit_bytes: this.limit, message_bytes: m.bytes },
      ),
    );
  }

  /** Requests wait for their answer; a request the client cancelled gets none (MCP). */
  private track(message: JSONRPCMessage, bytes: number): void {
    if (!("method" in message)) return;
    if ("id" in message) {
      this.heldInput += bytes - (this.unanswered.get(message.id) ?? 0);
      this.unanswered.set(message.id, bytes);
    } else if (message.method === "notifications/cancelled") {
      const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof id === "string" || typeof id === "number") this.answered(id);
    }
  }

  private answered(id: RequestId): void {
    const bytes = this.unanswered.get(id);
    if (bytes === undefined) return;
    this.unanswered.delete(id);
    this.heldInput -= bytes;
    if (this.heldInput <= MAX_HELD_INPUT_BYTES) for (const go of this.inputWaiters.splice(0)) go();
    if (this.unanswered.size === 0) for (const resolve of this.drainWaiters.splice(0)) resolve();
  }

  /** Whether a request received is still waiting for its answer. */
  hasUnanswered(): boolean {
    return this.unanswered.size > 0;
  }

  /** Resolves once every request received so far has been answered (or cancelled by the client). */
  drained(): Promise<void> {
    if (this.unanswered.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** Resolves once every message sent so far has been written (or let go). */
  written(): Promise<void> {
    return this.backlog.settled();
  }

  private reply(message: ErrorReply): void {
    // the SDK's message type has no null id; JSON-RPC answers unidentifiable requests so
    void this.send(message as unknown as JSONRPCMessage);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    try {
      const pieces = messagePieces(message);
      let bytes = 1 + MESSAGE_COST_BYTES;
      let chars = 0;
      for (const piece of pieces) {
        bytes += Buffer.byteLength(piece, "utf8");
        chars += piece.length;
      }
      const joined = chars <= JOIN_BELOW_CHARS;
      await this.backlog.enqueue(bytes, () =>
        this.write(joined ? [`${pieces.join("")}\n`] : [...pieces, "\n"]),
      );
    } catch (err) {
      this.outputFailed(err);
    } finally {
      if (!("method" in message) && message.id !== undefined) {
        this.answered(message.id);
        this.onanswered?.();
      }
    }
  }

  /** At its turn, a message goes out in pieces, each taken whole before the next. */
  private async write(pieces: readonly string[]): Promise<void> {
    const out = this.opts.output;
    for (const whole of pieces) {
      // a surrogate pair split would go out as two U+FFFD
      for (const piece of textPieces(whole, JOIN_BELOW_CHARS)) {
        if (this.closed) return;
        out.write(piece);
        const flushed = out.flush();
        if (typeof flushed !== "number") await flushed;
        this.backlog.took();
      }
    }
  }

  /** More than the bound waits and the client took nothing for the stall time. */
  private outputStalled(): void {
    log.warn(
      `the client does not read its output: more than ${this.backlog.bound} bytes of answers wait for it and it took nothing for ${this.backlog.stallMs} ms`,
    );
    void this.close();
  }

  /** The client closed our stdout (EPIPE) or it failed otherwise: nobody can hear us any more. */
  private outputFailed(err: unknown): void {
    if (this.closed) return;
    const code = (err as { code?: unknown } | null)?.code;
    log.info(
      `stdout ${code === "EPIPE" ? "closed by the client (EPIPE)" : `failed: ${String(err)}`}`,
    );
    void this.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.backlog.end();
    for (const go of this.inputWaiters.splice(0)) go();
    this.opts.input.cancel().catch(() => {});
    this.onclose?.();
  }
}
