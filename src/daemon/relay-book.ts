/**
 * What the stdio relay keeps of a conversation it passes on (SPEC §2.2), pure:
 * where the client's lines begin and end and what each is (id, method — the
 * line's first bytes are enough), the requests waiting for their answer, and the
 * client's `initialize` and `initialized`. When the shared bridge dies, each
 * waiting request gets a typed answer, and the next bridge is greeted with the
 * client's own handshake (under an id of the relay's, its answer dropped), so the
 * client notices nothing but the calls that failed.
 */
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import { BridgeError } from "../errors.ts";
import { errorResult } from "../mcp/envelope.ts";
import { TopLevelScanner } from "../mcp/transport/oversize-scan.ts";

/** A line this short is kept whole and parsed (the handshake, every ordinary request). */
export const KEPT_LINE_BYTES = 64 * 1024;
/** Of a bridge's line, this much tells an answer's id. */
const ANSWER_HEAD_BYTES = 4096;
const NEWLINE = 0x0a;
/** JSON-RPC's internal error, for an answer lost with the bridge that is not a tool call's. */
const INTERNAL_ERROR = -32603;

export interface LineInfo {
  id: RequestId | null | undefined;
  hasMethod: boolean;
  /** the parsed line, when it was short enough to keep */
  message: Record<string, unknown> | undefined;
}

/** A piece of the client's input: forwarded as is; `first` begins a line, `end` ends one. */
export interface Piece {
  bytes: Uint8Array;
  first: boolean;
  end?: LineInfo;
}

/** The client's byte stream cut at line ends, each line described at its end. */
export class ClientLines {
  private scanner = new TopLevelScanner();
  private kept: Uint8Array[] = [];
  private keptBytes = 0;
  private atStart = true;

  push(chunk: Uint8Array): Piece[] {
    const pieces: Piece[] = [];
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline < 0 ? chunk.length : newline + 1;
      const bytes = chunk.subarray(start, end);
      const body = newline < 0 ? bytes : bytes.subarray(0, bytes.length - 1);
      this.scanner.feed(body);
      if (this.keptBytes + body.length <= KEPT_LINE_BYTES) this.kept.push(body);
      this.keptBytes += body.length;
      const piece: Piece = { bytes, first: this.atStart };
      this.atStart = newline >= 0;
      if (newline >= 0) piece.end = this.finish();
      pieces.push(piece);
      start = end;
    }
    return pieces;
  }

  private finish(): LineInfo {
    const facts = this.scanner.facts();
    let message: Record<string, unknown> | undefined;
    if (this.keptBytes <= KEPT_LINE_BYTES) {
      try {
        const value: unknown = JSON.parse(Buffer.concat(this.kept).toString("utf8"));
        if (value !== null && typeof value === "object" && !Array.isArray(value))
          message = value as Record<string, unknown>;
      } catch {
        // not JSON: the bridge answers it
      }
    }
    this.scanner = new TopLevelScanner();
    this.kept = [];
    this.keptBytes = 0;
    return { id: facts.id, hasMethod: facts.hasMethod, message };
  }
}

/** The bridge's output cut into whole lines (newline excluded). */
export class BridgeLines {
  private parts: Uint8Array[] = [];

  push(chunk: Uint8Array): Uint8Array[] {
    const lines: Uint8Array[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline < 0) break;
      this.parts.push(chunk.subarray(start, newline));
      lines.push(
        this.parts.length === 1 ? (this.parts[0] as Uint8Array) : Buffer.concat(this.parts),
      );
      this.parts = [];
      start = newline + 1;
    }
    if (start < chunk.length) this.parts.push(new Uint8Array(chunk.subarray(start)));
    return lines;
  }

  /** A bridge that died mid-line leaves no line. */
  reset(): void {
    this.parts = [];
  }
}

const key = (id: RequestId): string => JSON.stringify(id);

/** The error a request lost with its bridge is answered with (SPEC §2.2). */
export function bridgeLost(): BridgeError {
  return new BridgeError("SessionDead", "the shared bridge exited while this call was in flight", {
    hint: "call again: the next call starts a new shared bridge (theodolite daemon status lists them)",
    details: { shared_bridge: "exited" },
  });
}

/** The typed answer to a request lost with the bridge: a tool error for tools/call, else a JSON-RPC error. */
export function lostAnswer(
  id: RequestId,
  method: string | undefined,
  err: BridgeError = bridgeLost(),
): string {
  if (method === "tools/call")
    return JSON.stringify({ jsonrpc: "2.0", id, result: errorResult(err) });
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    error: { code: INTERNAL_ERROR, message: err.message, data: err.toEnvelope() },
  });
}

export class RelayBook {
  private readonly pending = new Map<string, { id: RequestId; method: string | undefined }>();
  private initialize:
    | { message: Record<string, unknown>; id: string; answered: boolean }
    | undefined;
  private initialized: string | undefined;
  private readonly dropped = new Set<string>();
  private replays = 0;

  /** A line the client sent, now with the bridge. */
  sent(line: LineInfo): void {
    const { id, message } = line;
    const method = typeof message?.method === "string" ? message.method : undefined;
    if (line.hasMethod && id !== undefined && id !== null) {
      this.pending.set(key(id), { id, method });
      if (method === "initialize" && this.initialize === undefined && message !== undefined)
        this.initialize = { message, id: key(id), answered: false };
    } else if (method === "notifications/initialized" && message !== undefined) {
      this.initialized ??= JSON.stringify(message);
    } else if (method === "notifications/cancelled") {
      const params = message?.params as { requestId?: unknown } | undefined;
      const requestId = params?.requestId;
      if (typeof requestId === "string" || typeof requestId === "number")
        this.pending.delete(key(requestId));
    }
  }

  /** A line of the bridge's: whether the client gets it (a replayed handshake's answer does not). */
  received(line: Uint8Array): boolean {
    const scanner = new TopLevelScanner();
    scanner.feed(line.subarray(0, ANSWER_HEAD_BYTES));
    const facts = scanner.facts();
    if (!facts.isResponse || facts.id === undefined || facts.id === null) return true;
    const k = key(facts.id);
    if (this.dropped.delete(k)) return false;
    this.pending.delete(k);
    if (this.initialize?.id === k) this.initialize.answered = true;
    return true;
  }

  /** The bridge is gone: the typed answers to what waited, which is then no longer waiting. */
  lost(): string[] {
    const answers = [...this.pending.values()].map((p) => lostAnswer(p.id, p.method));
    this.pending.clear();
    this.dropped.clear();
    return answers;
  }

  /** A request cut off with its bridge before its end reached it: its answer, if it wants one. */
  cutOff(line: LineInfo, err?: BridgeError): string | undefined {
    if (!line.hasMethod || line.id === undefined || line.id === null) return undefined;
    const method = typeof line.message?.method === "string" ? line.message.method : undefined;
    return lostAnswer(line.id, method, err);
  }

  /** What a new bridge is told first: the client's handshake, if the last bridge answered it. */
  replay(): string[] {
    if (this.initialize === undefined || !this.initialize.answered) return [];
    const id = `theodolite-relay-${++this.replays}`;
    this.dropped.add(key(id));
    const lines = [JSON.stringify({ ...this.initialize.message, id })];
    if (this.initialized !== undefined) lines.push(this.initialized);
    return lines;
  }

  get waiting(): number {
    return this.pending.size;
  }
}
