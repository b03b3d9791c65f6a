/**
 * One MCP handshake per connection (SPEC §7.1): the client identity, and
 * with it the apply class, is fixed by the first `initialize` that succeeds.
 * Any later `initialize` (or one sent while the first is being answered) is
 * refused with a JSON-RPC error before the SDK's `Server` sees it, so it
 * changes nothing. Sits between the transport and the `Server` as a
 * transport itself.
 */
import type {
  Transport,
  TransportSendOptions,
} from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { log } from "../../log.ts";

type HandshakeState = { kind: "open" } | { kind: "answering"; id: RequestId } | { kind: "done" };

export class SingleHandshake implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private state: HandshakeState = { kind: "open" };

  constructor(private readonly inner: Transport) {
    inner.onmessage = (message) => this.receive(message);
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  private receive(message: JSONRPCMessage): void {
    if (!("method" in message) || message.method !== "initialize" || !("id" in message)) {
      this.onmessage?.(message);
      return;
    }
    if (this.state.kind === "open") {
      this.state = { kind: "answering", id: message.id };
      this.onmessage?.(message);
      return;
    }
    log.warn("refused a second initialize: the client identity is fixed by the first handshake");
    void this.inner.send({
      jsonrpc: "2.0",
      id: message.id,
      error: {
        code: ErrorCode.InvalidRequest,
        message:
          "Invalid Request: this connection is already initialized; the client identity and the tools offered stay those of the first handshake (SPEC §7.1)",
      },
    });
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const state = this.state;
    if (state.kind === "answering" && "id" in message && message.id === state.id) {
      // a failed initialize (invalid params) leaves the handshake open for another try
      this.state = "result" in message ? { kind: "done" } : { kind: "open" };
    }
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
