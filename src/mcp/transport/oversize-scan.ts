/**
 * What an over-limit MCP message is, found without keeping it (SPEC §4.8): a
 * streaming scan of its bytes that tracks only strings and nesting depth and
 * remembers the top-level `id` value (a few bytes) and whether `method`,
 * `result` or `error` keys appear. Memory is constant whatever the size.
 */
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Keys longer than this are not ones we look for. */
const MAX_KEY_BYTES = 8;
/** An id longer than this is not a usable id (a JSON-RPC id is a string or an integer). */
const MAX_ID_BYTES = 256;

export interface OversizeFacts {
  /** the top-level `id`: a valid id, null (present but not a string or integer), undefined (absent) */
  id: RequestId | null | undefined;
  /** a top-level `method` key: a request or notification */
  hasMethod: boolean;
  /** a top-level `result` or `error` key: a response */
  isResponse: boolean;
}

function isWhitespace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

export class TopLevelScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private started = false;
  /** the first byte was not `{`, or the top-level object ended: nothing more to learn */
  private done = false;
  private expectKey = false;
  /** bytes of the top-level key being read; null when not reading one */
  private keyBytes: number[] | null = null;
  private key = "";
  /** bytes of the `id` value being read; null when not reading it */
  private idBytes: number[] | null = null;
  private idRaw: string | null | undefined;
  private hasMethod = false;
  private isResponse = false;

  feed(chunk: Uint8Array): void {
    let nextBackslash = -2; // -2: not looked for yet in this chunk, -1: none left
    for (let i = 0; i < chunk.length && !this.done; i++) {
      if (this.inString && !this.escaped && this.keyBytes === null && this.idBytes === null) {
        // inside a string we keep nothing of: jump to its next quote or backslash (memchr)
        if (nextBackslash !== -1 && nextBackslash < i) nextBackslash = chunk.indexOf(BACKSLASH, i);
        const quote = chunk.indexOf(QUOTE, i);
        const stop =
          quote < 0 ? nextBackslash : nextBackslash < 0 ? quote : Math.min(quote, nextBackslash);
        if (stop < 0) return;
        i = stop;
      }
      const b = chunk[i] as number;
      if (this.inString) {
        this.stringByte(b);
        continue;
      }
      if (!this.started) {
        if (isWhitespace(b)) continue;
        this.started = true;
        if (b !== OPEN_BRACE) this.done = true;
        this.depth = 1;
        this.expectKey = true;
        continue;
      }
      this.structuralByte(b);
    }
  }

  private stringByte(b: number): void {
    if (this.escaped) {
      this.escaped = false;
    } else if (b === BACKSLASH) {
      this.escaped = true;
    } else if (b === QUOTE) {
      this.inString = false;
      if (this.keyBytes !== null) {
        this.key =
          this.keyBytes.length <= MAX_KEY_BYTES ? String.fromCharCode(...this.keyBytes) : "";
        this.keyBytes = null;
        return;
      }
    }
    if (this.keyBytes !== null) {
      if (this.keyBytes.length <= MAX_KEY_BYTES) this.keyBytes.push(b);
    } else {
      this.recordId(b);
    }
  }

  private structuralByte(b: number): void {
    const atTop = this.depth === 1;
    if (atTop && this.idBytes !== null && (b === COMMA || b === CLOSE_BRACE)) this.finishId();
    switch (b) {
      case QUOTE:
        this.inString = true;
        if (atTop && this.expectKey) {
          this.keyBytes = [];
          return;
        }
        break;
      case OPEN_BRACE:
      case OPEN_BRACKET:
        this.depth += 1;
        break;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        this.depth -= 1;
        if (this.depth === 0) {
          this.done = true;
          return;
        }
        break;
      case COLON:
        if (atTop) {
          this.expectKey = false;
          if (this.key === "id") this.idBytes = [];
          else if (this.key === "method") this.hasMethod = true;
          else if (this.key === "result" || this.key === "error") this.isResponse = true;
          return;
        }
        break;
      case COMMA:
        if (atTop) {
          this.expectKey = true;
          return;
        }
        break;
    }
    this.recordId(b);
  }

  private recordId(b: number): void {
    if (this.idBytes === null) return;
    if (this.idBytes.length > MAX_ID_BYTES) return;
    this.idBytes.push(b);
  }

  private finishId(): void {
    const bytes = this.idBytes as number[];
    this.idBytes = null;
    this.idRaw = bytes.length > MAX_ID_BYTES ? null : Buffer.from(bytes).toString("utf8");
  }

  facts(): OversizeFacts {
    if (this.idBytes !== null) this.finishId(); // the message ended inside the id value
    return { id: parseId(this.idRaw), hasMethod: this.hasMethod, isResponse: this.isResponse };
  }
}

function parseId(raw: string | null | undefined): RequestId | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === "string" || (typeof value === "number" && Number.isSafeInteger(value))) {
      return value;
    }
  } catch {
    // not a JSON value
  }
  return null;
}
