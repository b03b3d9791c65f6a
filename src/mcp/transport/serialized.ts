/**
 * Outgoing messages serialized once. A tool result is already serialized by
 * the size cap (SPEC §4.4); its JSON is remembered beside the object, and the
 * transport writes that text into the JSON-RPC response instead of
 * serializing the result a second time.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** The key the JSON travels under, on the result itself (JSON.stringify skips symbols). */
const SERIALIZED = Symbol("serialized");

/** Remember `pieces` (concatenated: the JSON of `value`) for when `value` is sent as a result. */
export function withSerialization<T extends object>(value: T, pieces: readonly string[]): T {
  Object.defineProperty(value, SERIALIZED, { value: pieces, enumerable: false });
  return value;
}

/** The message's JSON text as pieces to write in order (no newline). */
export function messagePieces(message: JSONRPCMessage): readonly string[] {
  if ("result" in message) {
    const pieces = (message.result as { [SERIALIZED]?: readonly string[] })[SERIALIZED];
    if (pieces !== undefined) {
      return [`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":`, ...pieces, "}"];
    }
  }
  return [JSON.stringify(message)];
}
