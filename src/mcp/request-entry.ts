/**
 * Requests enter the SDK's `Protocol` at its request entry, past its message
 * classification (docs/PERFORMANCE.md, "the MCP path"). The Protocol that
 * `Server.connect` installs sorts every incoming message by running the SDK's
 * zod schemas for a result, an error and a request in turn — the two failing
 * parses build zod errors — which measured ~29 µs of every call on the bridge's
 * critical path. Our transport has already checked each message structurally
 * against the same schemas (jsonrpc-check.ts, held to them by a unit test), so
 * a message with a method and an id is a request: it goes straight to the
 * entry the classifier itself calls for requests, with the same arguments.
 * Everything else (notifications, responses) still takes the SDK's path.
 *
 * The entry is the SDK's own `_onrequest`, not part of its typed API; the SDK
 * version is pinned (package.json), and when the method is missing the SDK's
 * path is kept as it is (a unit test fails loudly on such an upgrade).
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";

type RequestEntry = (this: Server, request: JSONRPCRequest, extra?: unknown) => void;

/** The SDK Protocol's request entry, if this SDK version has it. */
export function requestEntryOf(server: Server): RequestEntry | undefined {
  const entry = (server as unknown as { _onrequest?: unknown })._onrequest;
  return typeof entry === "function" ? (entry as RequestEntry) : undefined;
}

/**
 * After `server.connect(transport)`: deliver requests to the Protocol's request entry.
 * Returns whether the direct entry is in use.
 */
export function enterRequestsDirectly(server: Server, transport: Transport): boolean {
  const entry = requestEntryOf(server);
  const classified = transport.onmessage;
  if (entry === undefined || classified === undefined) return false;
  transport.onmessage = (message: JSONRPCMessage, extra?: unknown) => {
    if ("method" in message && "id" in message) entry.call(server, message, extra);
    else classified(message, extra as never);
  };
  return true;
}
