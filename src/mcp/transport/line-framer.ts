/**
 * Newline-delimited framing of the MCP stdio stream with a per-message size
 * limit (SPEC §4.8). A line within the limit is handed on as bytes (without
 * a copy when it lies in one chunk); a line over the limit is never
 * assembled: its bytes go through a constant-memory scan (oversize-scan.ts)
 * and are dropped, and at its end the caller learns its size and top-level
 * facts, so that it can answer it.
 */
import { type OversizeFacts, TopLevelScanner } from "./oversize-scan.ts";

const NEWLINE = 0x0a;

export interface Oversize extends OversizeFacts {
  /** the whole message's size in bytes, newline excluded */
  bytes: number;
}

export interface FramerSink {
  line(bytes: Uint8Array): void;
  oversize(message: Oversize): void;
  /** `bytes` of an over-limit line were scanned and let go (garbage from now on) */
  dropped?(bytes: number): void;
}

export class LineFramer {
  private parts: Uint8Array[] = [];
  private size = 0;
  /** set while skipping an over-limit line */
  private scanner: TopLevelScanner | null = null;

  constructor(
    private readonly limit: number,
    private readonly sink: FramerSink,
  ) {}

  push(chunk: Uint8Array): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline < 0 ? chunk.length : newline;
      this.take(chunk.subarray(start, end));
      if (newline < 0) return;
      this.endLine();
      start = newline + 1;
    }
  }

  /** Bytes of an unterminated line left at end of input (they are not a message). */
  pendingBytes(): number {
    return this.size;
  }

  private take(piece: Uint8Array): void {
    if (this.scanner !== null) {
      this.scanner.feed(piece);
      this.size += piece.length;
      this.sink.dropped?.(piece.length);
      return;
    }
    if (this.size + piece.length > this.limit) {
      // over the limit: from here on the line is scanned, not kept
      const scanner = new TopLevelScanner();
      for (const part of this.parts) scanner.feed(part);
      scanner.feed(piece);
      this.parts = [];
      this.scanner = scanner;
      this.size += piece.length;
      this.sink.dropped?.(this.size);
      return;
    }
    if (piece.length > 0) this.parts.push(piece);
    this.size += piece.length;
  }

  private endLine(): void {
    const { parts, size, scanner } = this;
    this.parts = [];
    this.size = 0;
    this.scanner = null;
    if (scanner !== null) {
      this.sink.oversize({ bytes: size, ...scanner.facts() });
    } else if (parts.length === 1) {
      this.sink.line(parts[0] as Uint8Array);
    } else if (parts.length > 1) {
      this.sink.line(Buffer.concat(parts, size));
    }
  }
}
