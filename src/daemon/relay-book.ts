/**
 * What the stdio relay keeps of a conversation it passes on (SPEC §2.2), pure:
 * where the client's lines begin and end and what each is — above all the ids the
 * bridge will answer it under, decided as the bridge's transport decides them
 * (mcp/transport/stdio.ts: bounds, parse, structural check), so a line the bridge
 * answers with `id: null` or not at all is never waited for — the requests waiting
 * for their answer, and the client's `initialize` and `initialized`. When the shared
 * bridge dies, each waiting request gets a typed answer, and the next bridge is
 * greeted with the client's own handshake (under an id of the relay's, its answer
 * dropped), so the client notices nothing but the calls that failed.
 */
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { BridgeError } from "../errors.ts";
import { exceeds } from "../json-bounds.ts";
import { errorResult } from "../mcp/envelope.ts";
import { checkMessage, isRequestId } from "../mcp/transport/jsonrpc-check.ts";
import { type OversizeFacts, TopLevelScanner } from "../mcp/transport/oversize-scan.ts";
import { CLIENT_JSON_BOUNDS, MAX_MESSAGE_BYTES } from "../mcp/transport/stdio.ts";

/** A line this short is kept whole and parsed, as the bridge parses it: any it reads whole. */
export const KEPT_LINE_BYTES = MAX_MESSAGE_BYTES;
/** Of a bridge's line, this much tells an answer's id. */
const ANSWER_HEAD_BYTES = 4096;
const NEWLINE = 0x0a;
/** JSON-RPC's internal error, for an answer lost with the bridge that is not a tool call's. */
const INTERNAL_ERROR = -32603;

export interface LineInfo {
  /** the ids the bridge answers this line under: none for a notification, a response, or a line it answers with `id: null` */
  answers: RequestId[];
  /** the parsed line, when the bridge would deliver it */
  message: Record<string, unknown> | undefined;
}

/** A piece of the client's input: forwarded as is; `first` begins a line, `end` ends one. */
export interface Piece {
  bytes: Uint8Array;
  first: boolean;
  end?: LineInfo;
}

/** The id a request the bridge refuses unparsed is answered under (its scanned facts). */
function scannedId(facts: OversizeFacts): RequestId[] {
  const { id, hasMethod, isResponse } = facts;
  return hasMethod && !isResponse && isRequestId(id) ? [id] : [];
}

/**
 * What the bridge answers one whole line with (pure): `bytes` is the line without its
 * newline when it is at most MAX_MESSAGE_BYTES, else null (the bridge never reads it
 * whole and answers from the scanned facts).
 */
export function describeLine(
  bytes: Uint8Array | null,
  facts: OversizeFacts,
  decoder: TextDecoder,
): LineInfo {
  if (bytes === null || exceeds(bytes, CLIENT_JSON_BOUNDS) !== undefined)
    return { answers: scannedId(facts), message: undefined };
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    return { answers: [], message: undefined }; // answered `id: null`, or a blank line
  }
  const checked = checkMessage(value);
  if (checked.kind === "refuse")
    return {
      answers: checked.replies.flatMap((r) => (r.id === null ? [] : [r.id])),
      message: undefined,
    };
  if (checked.kind === "ignore") return { answers: [], message: undefined };
  const message = checked.message as Record<string, unknown>;
  const answers = "method" in message && isRequestId(message.id) ? [message.id] : [];
  return { answers, message };
}

/** The client's byte stream cut at line ends, each line described at its end. */
export class ClientLines {
  private scanner = new TopLevelScanner();
  private readonly decoder = new TextDecoder();
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
      this.keptBytes += body.length;
      if (this.keptBytes <= KEPT_LINE_BYTES) this.kept.push(body);
      else this.kept = [];
      const piece: Piece = { bytes, first: this.atStart };
      this.atStart = newline >= 0;
      if (newline >= 0) piece.end = this.finish();
      pieces.push(piece);
      start = end;
    }
    return pieces;
  }

  private finish(): LineInfo {
    const whole = this.keptBytes <= KEPT_LINE_BYTES ? Buffer.concat(this.kept) : null;
    const info = describeLine(whole, this.scanner.facts(), this.decoder);
    this.scanner = new TopLevelScanner();
    this.kept = [];
    this.keptBytes = 0;
    return info;
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

/** The typed answer to a request lost with the bridge: a tool error for tools/call, else a JSON-RPC error. */
export function lostAnswer(id: RequestId, method: string | undefined, err: BridgeError): string {
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

  /** A line the client sent, now with the bridge: what it will answer by id is waited for. */
  sent(line: LineInfo): void {
    const { answers, message } = line;
    const method = typeof message?.method === "string" ? message.method : undefined;
    for (const id of answers) this.pending.set(key(id), { id, method });
    const [id] = answers;
    if (id !== undefined) {
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

  /** The bridge is gone (`err` says how): the typed answers to what waited, which is then no longer waiting. */
  lost(err: BridgeError): string[] {
    const answers = [...this.pending.values()].map((p) => lostAnswer(p.id, p.method, err));
    this.pending.clear();
    this.dropped.clear();
    return answers;
  }

  /** A line cut off with its bridge before its end reached it (`err` says how): its answers. */
  cutOff(line: LineInfo, err: BridgeError): string[] {
    const method = typeof line.message?.method === "string" ? line.message.method : undefined;
    return line.answers.map((id) => lostAnswer(id, method, err));
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
