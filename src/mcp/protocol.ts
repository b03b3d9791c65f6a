/**
 * theodolite's MCP protocol layer, owned outright (docs/ARCHITECTURE.md): a
 * tools-only server needs `initialize`, `ping`, `tools/list`, `tools/call` and the
 * `initialized` and `cancelled` notifications, and the transport has already checked each
 * message's structure (jsonrpc-check.ts), so dispatch is plain property tests rather than
 * the SDK `Server`'s schema classification of every message. The SDK gives the types,
 * the protocol versions, `initialize`'s schema and `McpError` for JSON-RPC errors. One
 * handshake per connection (SPEC §7.1): the first `initialize` that succeeds fixes the
 * client identity and capabilities; a later one is refused. The bridge asks the client one
 * thing, its roots (SPEC §2.1): `request` sends a request and awaits its response, at most
 * MAX_CLIENT_REQUESTS at a time, each bounded by its timeout (SPEC §4.8).
 */
import {
  type ClientCapabilities,
  ErrorCode,
  type Implementation,
  InitializeRequestSchema,
  type JSONRPCMessage,
  type JSONRPCRequest,
  LATEST_PROTOCOL_VERSION,
  McpError,
  type RequestId,
  type ServerCapabilities,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { log } from "../log.ts";

/** SPEC §4.8: requests sent to the client and awaiting its response, at most. */
export const MAX_CLIENT_REQUESTS = 4;

/** What the protocol layer needs of a transport (transport/stdio.ts). */
export interface MessageTransport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  /** whether a response with this id is awaited: only such responses are delivered */
  awaits?: (id: RequestId) => boolean;
  start(): Promise<void>;
  send(message: JSONRPCMessage): Promise<void>;
  close(): Promise<void>;
}

/** What a request handler gets besides the request. */
export interface RequestContext {
  /** aborted when the client cancels the request (notifications/cancelled) */
  signal: AbortSignal;
  /** send a notification to the client (progress) */
  notify(method: string, params: Record<string, unknown>): void;
}

export type RequestHandler = (
  request: JSONRPCRequest,
  ctx: RequestContext,
) => Promise<unknown> | unknown;

export interface ServerDescription {
  serverInfo: Implementation;
  capabilities: ServerCapabilities;
  instructions?: string;
}

type Handshake =
  | { kind: "open" }
  | { kind: "done"; client: Implementation; capabilities: ClientCapabilities };

/** A request sent to the client, awaiting its response. */
interface Awaited {
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

export class McpConnection {
  onclose?: () => void;
  /** the client's `initialized` notification arrived */
  oninitialized?: () => void;
  /** the client's `notifications/roots/list_changed` arrived */
  onrootschanged?: () => void;
  private handshake: Handshake = { kind: "open" };
  private readonly handlers = new Map<string, RequestHandler>();
  private readonly inFlight = new Map<RequestId, AbortController>();
  private readonly awaited = new Map<RequestId, Awaited>();
  private requestsSent = 0;
  private closed = false;
  private initializedSeen = false;
  private initializedWaiters: (() => void)[] = [];

  constructor(
    private readonly transport: MessageTransport,
    private readonly server: ServerDescription,
  ) {
    transport.onmessage = (message) => this.receive(message);
    transport.awaits = (id) => this.awaited.has(id);
    transport.onclose = () => {
      this.closed = true;
      for (const c of this.inFlight.values()) c.abort("the connection closed");
      for (const id of [...this.awaited.keys()])
        this.settle(id, new Error("the connection closed"));
      this.onclose?.();
    };
  }

  /** Answer `method` with `handler` (any method but `initialize` and `ping`). */
  handle(method: string, handler: RequestHandler): void {
    this.handlers.set(method, handler);
  }

  /** The client as its first successful `initialize` named it. */
  client(): Implementation | undefined {
    return this.handshake.kind === "done" ? this.handshake.client : undefined;
  }

  /** What the client offers, as its first successful `initialize` said. */
  clientCapabilities(): ClientCapabilities | undefined {
    return this.handshake.kind === "done" ? this.handshake.capabilities : undefined;
  }

  /** Resolves once the client's `initialized` notification came (MCP: requests follow it). */
  initialized(): Promise<void> {
    if (this.initializedSeen) return Promise.resolve();
    return new Promise((resolve) => this.initializedWaiters.push(resolve));
  }

  /**
   * Ask the client `method`: its result, or an Error — its JSON-RPC error (an McpError), no
   * response within `timeoutMs`, the connection closed, or MAX_CLIENT_REQUESTS waiting.
   */
  request(method: string, params: Record<string, unknown>, timeoutMs: number): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error("the connection closed"));
    if (this.awaited.size >= MAX_CLIENT_REQUESTS) {
      return Promise.reject(new Error(`${MAX_CLIENT_REQUESTS} requests to the client are waiting`));
    }
    const id = `theodolite-${++this.requestsSent}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => this.settle(id, new Error(`no response to ${method} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.awaited.set(id, { resolve, reject, timer });
      this.transport.send({ jsonrpc: "2.0", id, method, params }).catch((err: unknown) => {
        this.settle(id, err instanceof Error ? err : new Error(String(err)));
      });
    });
  }

  /** The awaited request `id` ends: failed with an Error, or with the client's result. */
  private settle(id: RequestId, outcome: Error | { value: unknown }): void {
    const waiting = this.awaited.get(id);
    if (waiting === undefined) return;
    this.awaited.delete(id);
    clearTimeout(waiting.timer);
    if (outcome instanceof Error) waiting.reject(outcome);
    else waiting.resolve(outcome.value);
  }

  /** A response to a request of ours (the transport delivers no other). */
  private response(message: JSONRPCMessage): void {
    if (!("id" in message) || message.id === undefined) return;
    if ("error" in message) {
      const { code, message: text, data } = message.error;
      this.settle(message.id, new McpError(code, text, data));
    } else if ("result" in message) {
      this.settle(message.id, { value: message.result });
    }
  }

  start(): Promise<void> {
    return this.transport.start();
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  private receive(message: JSONRPCMessage): void {
    // a response: the transport delivers only those to requests awaited
    if (!("method" in message)) {
      this.response(message);
      return;
    }
    if (!("id" in message)) {
      this.notification(message.method, message.params);
      return;
    }
    const request = message as JSONRPCRequest;
    if (request.method === "initialize") {
      this.reply(request.id, () => this.initialize(request));
      return;
    }
    if (request.method === "ping") {
      this.reply(request.id, () => ({}));
      return;
    }
    const handler = this.handlers.get(request.method);
    if (handler === undefined) {
      this.reply(request.id, () => {
        throw new McpError(ErrorCode.MethodNotFound, "Method not found");
      });
      return;
    }
    const controller = new AbortController();
    this.inFlight.set(request.id, controller);
    const ctx: RequestContext = {
      signal: controller.signal,
      notify: (method, params) => {
        void this.transport.send({ jsonrpc: "2.0", method, params }).catch(() => {});
      },
    };
    this.reply(
      request.id,
      () => handler(request, ctx),
      () => {
        if (this.inFlight.get(request.id) === controller) this.inFlight.delete(request.id);
        return controller.signal.aborted;
      },
    );
  }

  private notification(method: string, params: unknown): void {
    if (method === "notifications/initialized") {
      this.initializedSeen = true;
      for (const resolve of this.initializedWaiters.splice(0)) resolve();
      this.oninitialized?.();
    } else if (method === "notifications/roots/list_changed") this.onrootschanged?.();
    else if (method === "notifications/cancelled") {
      const p = params as { requestId?: unknown; reason?: unknown } | undefined;
      const id = p?.requestId;
      if (typeof id !== "string" && typeof id !== "number") return;
      this.inFlight.get(id)?.abort(typeof p?.reason === "string" ? p.reason : "cancelled");
    }
  }

  /** Run `answer` and send its result or error; none for a request the client cancelled. */
  private reply(id: RequestId, answer: () => unknown, finished?: () => boolean): void {
    const send = (message: JSONRPCMessage): void => {
      if (finished?.() === true) return;
      void this.transport.send(message).catch(() => {});
    };
    const fail = (err: unknown): void => send(errorMessage(id, err));
    let value: unknown;
    try {
      value = answer();
    } catch (err) {
      fail(err);
      return;
    }
    if (value instanceof Promise) {
      value.then((result) => send({ jsonrpc: "2.0", id, result }), fail);
    } else send({ jsonrpc: "2.0", id, result: value as Record<string, unknown> });
  }

  private initialize(request: JSONRPCRequest): Record<string, unknown> {
    if (this.handshake.kind === "done") {
      log.warn("refused a second initialize: the client identity is fixed by the first handshake");
      throw new McpError(
        ErrorCode.InvalidRequest,
        "Invalid Request: this connection is already initialized; the client identity and the tools offered stay those of the first handshake (SPEC §7.1)",
      );
    }
    const parsed = InitializeRequestSchema.safeParse(request);
    if (!parsed.success) {
      // a failed initialize leaves the handshake open for another try
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid initialize parameters: ${parsed.error.issues
          .slice(0, 3)
          .map((i) => `${i.path.join(".") || "(params)"}: ${i.message}`)
          .join("; ")}`,
      );
    }
    const { protocolVersion, clientInfo } = parsed.data.params;
    this.handshake = {
      kind: "done",
      client: clientInfo,
      capabilities: parsed.data.params.capabilities,
    };
    const { serverInfo, capabilities, instructions } = this.server;
    return {
      protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion)
        ? protocolVersion
        : LATEST_PROTOCOL_VERSION,
      capabilities,
      serverInfo,
      ...(instructions !== undefined ? { instructions } : {}),
    };
  }
}

function errorMessage(id: RequestId, err: unknown): JSONRPCMessage {
  if (err instanceof McpError) {
    const data = err.data === undefined ? {} : { data: err.data };
    return { jsonrpc: "2.0", id, error: { code: err.code, message: err.message, ...data } };
  }
  log.error(`a request failed: ${String(err)}`);
  return {
    jsonrpc: "2.0",
    id,
    error: { code: ErrorCode.InternalError, message: "Internal error" },
  };
}
