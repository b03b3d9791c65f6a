/**
 * The one builder for tool results (SPEC §4.3) and tool errors (SPEC §4.6).
 * A result carries the object as `structuredContent` and the same object as
 * the single text item, byte for byte (the text is what the size cap measured).
 * An error is `isError: true` with the envelope as JSON text and no
 * `structuredContent`: clients (the MCP SDK's among them) validate
 * `structuredContent` against the tool's output schema, which describes the
 * success result only. A result's JSON goes with it (serialized.ts), so the
 * object is serialized once, by the size cap.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type ErrorEnvelope, toEnvelope } from "../errors.ts";
import { relativizeEnvelope } from "../workspace/relative-text.ts";
import { withSerialization } from "./serialized.ts";

/** A successful result from an object already serialized by the size cap. */
export function resultFromJson(structured: Record<string, unknown>, json: string): CallToolResult {
  const result = {
    content: [{ type: "text" as const, text: json }],
    structuredContent: structured,
  };
  return withSerialization(result, [
    '{"content":[{"type":"text","text":',
    JSON.stringify(json),
    '}],"structuredContent":',
    json,
    "}",
  ]);
}

/** `root`: the call's workspace, whose paths the texts name relatively (SPEC §4.6). */
export function errorResult(err: unknown, root?: string): CallToolResult {
  const env: ErrorEnvelope = relativizeEnvelope(toEnvelope(err), root);
  return { isError: true, content: [{ type: "text", text: JSON.stringify(env) }] };
}
