/**
 * One client of a shared bridge (SPEC §2.2): its own transport over the socket —
 * with every bound of SPEC §4.8 and §8.2 — its own MCP protocol state (`initialize`,
 * client identity, cancellation, progress) and its own connection context (the
 * gate's handles and transcript, the `since` snapshots); the sessions are the
 * bridge's. What the client sends costs this connection only: a flood pauses its
 * socket, an oversized message is refused on it, its end closes it alone.
 */

import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Socket } from "bun";
import { bounded } from "../bounded.ts";
import { BridgeContext, type SharedBridge } from "../bridge.ts";
import type { Collector } from "../collector.ts";
import { log } from "../log.ts";
import type { McpConnection } from "../mcp/protocol.ts";
import { createMcpConnection } from "../mcp/server.ts";
import type { ToolDefinition } from "../mcp/tool.ts";
import { StdioTransport } from "../mcp/transport/stdio.ts";
import { SocketInput, SocketOutput } from "./socket-stream.ts";

export interface ConnectionDeps {
  shared: SharedBridge;
  tools: readonly ToolDefinition[];
  published: Tool[];
  collector: Collector;
  /** the connection ended (either side) */
  onend: (conn: ClientConnection) => void;
}

export class ClientConnection {
  readonly input: SocketInput;
  readonly output: SocketOutput;
  readonly transport: StdioTransport;
  readonly context: BridgeContext;
  readonly mcp: McpConnection;
  readonly openedAt = Date.now();
  private ended = false;

  constructor(
    private readonly socket: Socket<unknown>,
    readonly peerPid: number,
    private readonly deps: ConnectionDeps,
  ) {
    this.input = new SocketInput(socket);
    this.output = new SocketOutput(socket);
    this.transport = new StdioTransport({ input: this.input, output: this.output });
    this.context = new BridgeContext(deps.shared);
    this.mcp = createMcpConnection(this.context, deps.tools, this.transport, deps.published);
    const { collector } = deps;
    // the client closed its sending side: what it asked is still answered, then it ends
    this.transport.oninputend = () => void this.finish(true);
    this.transport.onanswered = () => collector.afterAnswer();
    this.transport.ontook = (bytes) => collector.took(bytes);
    this.transport.ondropped = (bytes) => collector.dropped(bytes);
    this.mcp.onclose = () => void this.finish(false);
  }

  /** The client's name from its `initialize`, or null. */
  get client(): string | null {
    const name = this.mcp.client()?.name;
    return typeof name === "string" && name.length > 0 ? name : null;
  }

  start(): Promise<void> {
    return this.mcp.start();
  }

  /** The socket closed under us: nobody can hear this connection any more. */
  closed(): void {
    this.input.end();
    this.output.close();
    void this.finish(false);
  }

  /** Answers in flight get up to the grace when `answer` (an orderly end); then the connection ends. */
  async finish(answer: boolean): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    if (answer) {
      const grace = this.deps.shared.config.bridge.shutdown_grace_ms;
      await bounded(this.transport.drained(), grace);
      await bounded(this.transport.written(), grace);
    }
    await this.mcp.close().catch((err: unknown) => log.debug(`closing a client: ${String(err)}`));
    this.socket.end();
    this.deps.onend(this);
  }
}
