/**
 * The structural check of one incoming JSON-RPC message (SPEC §4.8): plain
 * property checks that accept exactly what the MCP SDK's `JSONRPCMessageSchema`
 * accepts (a unit test holds the two together), without zod on every
 * message. What fails gets an answer when it carries an id: a request that
 * the SDK's dispatch would not recognize would otherwise go unanswered.
 */
import {
  ErrorCode,
  type JSONRPCMessage,
  RELATED_TASK_META_KEY,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import { isJsonObject } from "../../normalize/json.ts";

/** A JSON-RPC error response; unlike the SDK's type, its id may be null (JSON-RPC 2.0 §5). */
export interface ErrorReply {
  jsonrpc: "2.0";
  id: RequestId | null;
  error: { code: number; message: string; data?: Record<string, unknown> };
}

export type Checked =
  | { kind: "deliver"; message: JSONRPCMessage }
  /** answered with these errors, not delivered */
  | { kind: "refuse"; replies: ErrorReply[]; why: string }
  /** not delivered, nothing to answer (a notification or a response) */
  | { kind: "ignore"; why: string };

const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const NOTIFICATION_KEYS = new Set(["jsonrpc", "method", "params"]);
const RESULT_KEYS = new Set(["jsonrpc", "id", "result"]);
const ERROR_KEYS = new Set(["jsonrpc", "id", "error"]);

type Json = Record<string, unknown>;

export function isRequestId(v: unknown): v is RequestId {
  return typeof v === "string" || (typeof v === "number" && Number.isSafeInteger(v));
}

export function errorResponse(
  id: RequestId | null,
  code: number,
  message: string,
  data?: Record<string, unknown>,
): ErrorReply {
  return {
    jsonrpc: "2.0",
    id,
    error: data === undefined ? { code, message } : { code, message, data },
  };
}

function extraKey(v: Json, allowed: Set<string>): string | undefined {
  for (const key in v) if (!allowed.has(key)) return key;
  return undefined;
}

/** `_meta` of params or a result, as the SDK's schemas have it. */
function metaProblem(meta: unknown, where: string): string | undefined {
  if (meta === undefined) return undefined;
  if (!isJsonObject(meta)) return `${where}._meta must be an object`;
  const token = meta.progressToken;
  if (token !== undefined && !isRequestId(token)) {
    return `${where}._meta.progressToken must be a string or an integer`;
  }
  const task = meta[RELATED_TASK_META_KEY];
  if (task !== undefined && !(isJsonObject(task) && typeof task.taskId === "string")) {
    return `${where}._meta["${RELATED_TASK_META_KEY}"] must be {taskId: string}`;
  }
  return undefined;
}

/** `params` of a request or notification: absent or an object (MCP has no positional params). */
function paramsProblem(params: unknown): string | undefined {
  if (params === undefined) return undefined;
  if (!isJsonObject(params)) return "params must be an object";
  return metaProblem(params._meta, "params");
}

function envelopeProblem(v: Json, allowed: Set<string>): string | undefined {
  if (v.jsonrpc !== "2.0") return 'jsonrpc must be "2.0"';
  const extra = extraKey(v, allowed);
  return extra === undefined ? undefined : `unexpected member "${extra}"`;
}

function requestProblem(v: Json, isRequest: boolean): string | undefined {
  if (isRequest && !isRequestId(v.id)) return "id must be a string or an integer";
  return (
    envelopeProblem(v, isRequest ? REQUEST_KEYS : NOTIFICATION_KEYS) ??
    (typeof v.method === "string" ? undefined : "method must be a string") ??
    paramsProblem(v.params)
  );
}

function responseProblem(v: Json): string | undefined {
  if ("error" in v) {
    if (v.id !== undefined && !isRequestId(v.id)) return "id must be a string or an integer";
    const e = v.error;
    if (!isJsonObject(e) || !Number.isSafeInteger(e.code) || typeof e.message !== "string") {
      return "error must be {code: integer, message: string}";
    }
    return envelopeProblem(v, ERROR_KEYS);
  }
  if (!isRequestId(v.id)) return "id must be a string or an integer";
  if (!isJsonObject(v.result)) return "result must be an object";
  return envelopeProblem(v, RESULT_KEYS) ?? metaProblem(v.result._meta, "result");
}

function invalid(id: RequestId | null, why: string): Checked {
  return {
    kind: "refuse",
    replies: [errorResponse(id, ErrorCode.InvalidRequest, `Invalid Request: ${why}`)],
    why,
  };
}

/** Batches are not part of MCP (removed in protocol version 2025-06-18): each member with an id is refused. */
function refuseBatch(batch: unknown[]): Checked {
  const why = "JSON-RPC batches are not supported; send one message per line";
  if (batch.length === 0) return invalid(null, why);
  const replies: ErrorReply[] = [];
  for (const member of batch) {
    if (isJsonObject(member) && "method" in member && !("id" in member)) continue; // a notification
    const id = isJsonObject(member) && isRequestId(member.id) ? member.id : null;
    replies.push(errorResponse(id, ErrorCode.InvalidRequest, `Invalid Request: ${why}`));
  }
  return { kind: "refuse", replies, why };
}

export function checkMessage(value: unknown): Checked {
  if (Array.isArray(value)) return refuseBatch(value);
  if (!isJsonObject(value)) return invalid(null, "a message must be a JSON object");
  const idOf = (): RequestId | null => (isRequestId(value.id) ? value.id : null);
  if ("method" in value) {
    const isRequest = "id" in value;
    const problem = requestProblem(value, isRequest);
    if (problem === undefined) return { kind: "deliver", message: value as JSONRPCMessage };
    return isRequest
      ? invalid(idOf(), problem)
      : { kind: "ignore", why: `notification: ${problem}` };
  }
  if ("result" in value || "error" in value) {
    const problem = responseProblem(value);
    if (problem === undefined) return { kind: "deliver", message: value as JSONRPCMessage };
    return { kind: "ignore", why: `response: ${problem}` };
  }
  return invalid(idOf(), "no method, result or error");
}
