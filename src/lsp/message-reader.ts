/**
 * The framing of the server's stdout (SPEC §8), bounded, in place of vscode-jsonrpc's
 * ReadableStreamMessageReader, which keeps every byte until a message completes and
 * rescans its whole buffer for the end of the header on every chunk: a header that never
 * ends, or a `Content-Length` of 4 GB, grew the bridge without limit. Here every byte is
 * looked at once: a header is at most MAX_HEADER_BYTES, a body at most
 * `bridge.max_server_message_bytes` (refused from its `Content-Length`, before a byte of
 * it is kept), a body that would parse into more than SERVER_JSON_BOUNDS is refused as
 * its bytes arrive (src/json-bounds.ts, counted piece by piece, so the work is spread over
 * the turns of the event loop that read it), and what is not a JSON-RPC message too. A
 * refusal is an error of the reader, which the session takes as the server breaking the
 * protocol; nothing is read after it.
 */
import {
  AbstractMessageReader,
  type DataCallback,
  Disposable,
  type Message,
  type RAL,
} from "vscode-jsonrpc";
import { excessText, type JsonBounds, JsonScan, scanned } from "../json-bounds.ts";

/** SPEC §8: the longest LSP header, its blank line included. */
export const MAX_HEADER_BYTES = 8192;
/** Bodies up to this size are read into one buffer kept for the next (a large answer a call). */
const REUSED_BODY_BYTES = 1024 * 1024;
const CR = 0x0d;
const LF = 0x0a;
/**
 * SPEC §8.2: what one server message may parse into. A 100,000-location answer or 100,000
 * diagnostics fit; the worst that fits stays far under the bridge's memory bound
 * (docs/PERFORMANCE.md, "Hostile input").
 */
export const SERVER_JSON_BOUNDS: JsonBounds = Object.freeze({
  containers: 1 << 20,
  values: 1 << 21,
  shapes: 1 << 16,
});
/** JSON-RPC's internal error, for a response that carries neither result nor error. */
const INTERNAL_ERROR = -32603;

type Json = Record<string, unknown>;

const isId = (v: unknown): v is string | number => typeof v === "string" || typeof v === "number";

/**
 * The message vscode-jsonrpc may be handed, from a parsed body; a string says why it is
 * refused, null that it is dropped. The library logs what it cannot classify, pretty-
 * printed whole — an indent per level makes a 20 KB nest hundreds of megabytes — so
 * nothing unclassified reaches it.
 */
export function classify(value: unknown): Message | string | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return "a message that is not a JSON object";
  }
  const m = value as Json;
  if (typeof m.method === "string") {
    if (m.id === undefined || isId(m.id)) return m as unknown as Message;
    return "a request whose id is neither a string nor a number";
  }
  if (m.id === null) return null; // an answer to nothing the bridge can name
  if (!isId(m.id)) return "a message with neither a method nor an id";
  if (m.result !== undefined || (m.error !== undefined && m.error !== null)) {
    return m as unknown as Message;
  }
  const error = { code: INTERNAL_ERROR, message: "the response had neither a result nor an error" };
  return { jsonrpc: "2.0", id: m.id, error } as unknown as Message;
}

/** The header's fields, or why they are refused. */
function parseHeader(text: string, maxBody: number): number | string {
  let length: number | undefined;
  for (const line of text.split("\r\n")) {
    if (line === "") continue;
    const colon = line.indexOf(":");
    if (colon <= 0) return "a header line without a name and a colon";
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "content-length") {
      if (!/^[0-9]{1,16}$/.test(value)) return `Content-Length "${value.slice(0, 32)}"`;
      length = Number(value);
    } else if (name === "content-type") {
      const charset = /charset=([^;]*)/i.exec(value)?.[1]?.trim().toLowerCase();
      if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
        return `charset "${charset.slice(0, 32)}" (only UTF-8 is LSP)`;
      }
    }
  }
  if (length === undefined) return "a header without Content-Length";
  if (length > maxBody) {
    return `a message of ${length} bytes, over bridge.max_server_message_bytes (${maxBody})`;
  }
  return length;
}

export class BoundedMessageReader extends AbstractMessageReader {
  private readonly header = new Uint8Array(MAX_HEADER_BYTES);
  private headerLength = 0;
  /** how much of CR LF CR LF the header's last bytes matched */
  private ending = 0;
  private body: Uint8Array | null = null;
  /** the bytes bodies up to REUSED_BODY_BYTES are read into, kept between messages */
  private spare: Uint8Array | null = null;
  private bodyLength = 0;
  /** what the body would parse into, counted as its bytes arrive (large bodies only) */
  private scan: JsonScan | null = null;
  private failed = false;
  private readonly decoder = new TextDecoder();
  private callback: DataCallback = () => {};

  constructor(
    private readonly readable: RAL.ReadableStream,
    private readonly maxMessageBytes: number,
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    const subscriptions = [
      this.readable.onData((data) => this.onData(data)),
      this.readable.onError((error) => this.fireError(error)),
      this.readable.onClose(() => this.fireClose()),
    ];
    return Disposable.create(() => {
      for (const s of subscriptions) s.dispose();
    });
  }

  private refuse(why: string): void {
    this.failed = true;
    this.body = null;
    this.scan = null;
    this.fireError(new Error(why));
  }

  private onData(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length && !this.failed) {
      at = this.body === null ? this.readHeader(chunk, at) : this.readBody(chunk, at);
    }
  }

  /** Header bytes from `at` on, until the blank line; returns where the header ended. */
  private readHeader(chunk: Uint8Array, at: number): number {
    let i = at;
    for (; i < chunk.length && this.ending < 4; i++) {
      const byte = chunk[i] as number;
      if (this.headerLength === MAX_HEADER_BYTES) {
        this.refuse(`a message header longer than ${MAX_HEADER_BYTES} bytes`);
        return chunk.length;
      }
      this.header[this.headerLength++] = byte;
      const want = this.ending % 2 === 0 ? CR : LF;
      this.ending = byte === want ? this.ending + 1 : byte === CR ? 1 : 0;
    }
    if (this.ending < 4) return i;
    const text = Buffer.from(this.header.buffer, 0, this.headerLength - 4).toString("latin1");
    this.headerLength = 0;
    this.ending = 0;
    const length = parseHeader(text, this.maxMessageBytes);
    if (typeof length === "string") {
      this.refuse(length);
      return chunk.length;
    }
    // every byte is written before it is read; the text is decoded before the next message
    this.body = length <= REUSED_BODY_BYTES ? this.spareOf(length) : Buffer.allocUnsafe(length);
    this.bodyLength = 0;
    this.scan = scanned(SERVER_JSON_BOUNDS, length)
      ? new JsonScan(SERVER_JSON_BOUNDS, length)
      : null;
    if (length === 0) this.deliver();
    return i;
  }

  private spareOf(length: number): Uint8Array {
    if (this.spare === null || this.spare.length < length) {
      this.spare = new Uint8Array(Math.min(REUSED_BODY_BYTES, Math.max(length, 64 * 1024)));
    }
    return this.spare.subarray(0, length);
  }

  /** Body bytes, counted as they arrive: past SERVER_JSON_BOUNDS, refused before the rest. */
  private readBody(chunk: Uint8Array, at: number): number {
    const body = this.body as Uint8Array;
    const n = Math.min(body.length - this.bodyLength, chunk.length - at);
    const piece = chunk.subarray(at, at + n);
    const excess = this.scan?.feed(piece);
    if (excess !== undefined) {
      this.refuse(`a message of ${body.length} bytes that ${excessText(excess)}`);
      return chunk.length;
    }
    body.set(piece, this.bodyLength);
    this.bodyLength += n;
    if (this.bodyLength === body.length) this.deliver();
    return at + n;
  }

  /** The body as text; its bytes are let go (the parse may collect them). */
  private bodyText(): string {
    const body = this.body as Uint8Array;
    this.body = null;
    this.scan = null;
    return this.decoder.decode(body);
  }

  private deliver(): void {
    const bytes = this.body?.length ?? 0;
    const text = this.bodyText();
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      this.refuse(`a message body that is not JSON (${bytes} bytes): ${String(err)}`);
      return;
    }
    const message = classify(value);
    if (typeof message === "string") this.refuse(message);
    else if (message !== null) {
      try {
        this.callback(message);
      } catch (err) {
        this.refuse(`a message the connection could not take: ${String(err)}`);
      }
    }
  }
}
