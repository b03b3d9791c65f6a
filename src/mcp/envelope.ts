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
import { withSerialization } from "./transport/serialized.ts";

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

/**
 * The longest string an error carries (SPEC §4.6): a server's stderr tail fits (4,096);
 * a caller's input repeated in a message or `details` (a path, a workspace name) is cut.
 */
export const ERROR_STRING_MAX_CHARS = 8192;

/** `text` cut to its first `max` characters (never half a surrogate pair), then its length. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max).replace(/[\uD800-\uDBFF]$/, "");
  return `${cut}… (${text.length} characters)`;
}

function bounded(value: unknown): unknown {
  if (typeof value === "string") return cutText(value, ERROR_STRING_MAX_CHARS);
  if (Array.isArray(value)) return value.map(bounded);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bounded(v)]));
  }
  return value;
}

/** An envelope whose every string is at most ERROR_STRING_MAX_CHARS (session_status's errors). */
export function boundedEnvelope(env: ErrorEnvelope): ErrorEnvelope {
  return bounded(env) as ErrorEnvelope;
}

/**
 * `root`: the call's workspace, whose paths the texts name relatively (SPEC §4.6). Error
 * results are not size-capped (§4.4); every string of the envelope is bounded instead, so
 * no input of up to 8 MiB comes back whole, whichever check refused it.
 */
export function errorResult(err: unknown, root?: string): CallToolResult {
  const env = bounded(relativizeEnvelope(toEnvelope(err), root)) as ErrorEnvelope;
  return { isError: true, content: [{ type: "text", text: JSON.stringify(env) }] };
}
