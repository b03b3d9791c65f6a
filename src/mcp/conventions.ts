/**
 * The conventions every tool shares (SPEC §4.2, §4.3, §4.6), said once: the
 * argument schemas, the output fragments, paging, and the `initialize`
 * instructions that explain positions, paging and error codes to the client
 * (tool descriptions do not repeat them, so tools/list stays small, SPEC §4.1).
 */
import { z } from "zod";
import type { ErrorCode } from "../errors.ts";
import type { Paging } from "../normalize/paging.ts";
import { cutText } from "./envelope.ts";
import type { CallContext } from "./tool.ts";
import { negativeOffset, outsideBounds } from "./tools/tool-errors.ts";

// Bounds the handlers check anyway with a typed error and a hint (an empty name or path,
// `symbol` length, `occurrence`, `limit` 1..max_limit, `offset`) are not repeated in the
// schema, so tools/list stays small; `line` and `column` keep their minimum of 1, the
// convention every position follows.
export const workspaceArg = z.string().optional();
export const serverArg = z.string().optional();
export const fileArg = z.string();
export const lineArg = z.number().int().min(1).optional();
export const columnArg = z.number().int().min(1).optional();
export const symbolArg = z.string().optional();
export const occurrenceArg = z.number().int().optional();
export const limitArg = z.number().int().optional();
export const offsetArg = z.number().int().optional();

/** The longest `symbol` accepted (a name, dotted path or text on a line). */
export const MAX_SYMBOL_LENGTH = 256;

export const fileShape = { workspace: workspaceArg, server: serverArg, file: fileArg };
export const positionShape = {
  ...fileShape,
  line: lineArg,
  column: columnArg,
  symbol: symbolArg,
  occurrence: occurrenceArg,
};
export const pagingShape = { limit: limitArg, offset: offsetArg };

export interface FileArgs {
  workspace?: string | undefined;
  server?: string | undefined;
  file: string;
}

export interface PositionArgs extends FileArgs {
  line?: number | undefined;
  column?: number | undefined;
  symbol?: string | undefined;
  occurrence?: number | undefined;
}

/**
 * Output schema fragments (SPEC §4.3). The shared shapes — a range {line, column, end_line,
 * end_column} and a location (a range with `file`) — are said once, in INSTRUCTIONS; tool
 * schemas publish a range or a location as a plain object, and an item with a location
 * flattened into it lists `file` and its own fields.
 */
export const rangeOut = z.object({});
export const locationOut = z.object({});
export const locFields = { file: z.string() };
export const pagedShape = { total: z.number().int(), next_offset: z.number().int().optional() };

/** `{[key]: items, total, next_offset?}` with keys in a fixed order (deterministic bytes). */
export function pagedResult<T>(
  key: string,
  p: { items: T[]; total: number; next_offset?: number },
): Record<string, unknown> {
  const out: Record<string, unknown> = { [key]: p.items, total: p.total };
  if (p.next_offset !== undefined) out.next_offset = p.next_offset;
  return out;
}

/**
 * `limit` within 1..bridge.max_limit and `offset` ≥ 0 (SPEC §4.2), with a message naming the
 * bound. Every list tool calls it first, before a file is read or a server started, so a
 * bad page is refused whatever the server would answer.
 */
export function checkPaging(
  ctx: CallContext,
  args: { limit?: number | undefined; offset?: number | undefined },
): Paging {
  const max = ctx.bridge.config.bridge.max_limit;
  const { limit, offset = 0 } = args;
  if (limit !== undefined && (limit < 1 || limit > max)) {
    const hint = `page with limit 1..${max} and offset, or leave limit out for every item`;
    throw outsideBounds("limit", 1, max, limit, hint);
  }
  if (offset < 0) {
    throw negativeOffset(offset);
  }
  return { limit, offset };
}

/** The longest piece of the caller's input (a name, a key) an error repeats. */
export const ECHO_MAX_CHARS = 64;
/** The most names of the caller's an error lists; a count says how many there were. */
export const ECHO_MAX_NAMES = 20;

/**
 * `text` as an error may repeat it: error results are not size-capped (SPEC §4.4) and a
 * request may carry 8 MiB, so at most ECHO_MAX_CHARS characters and the length.
 */
export function echoText(text: string): string {
  return cutText(text, ECHO_MAX_CHARS);
}

/** The first ECHO_MAX_NAMES of `names` in sorted order, each through echoText, and the count. */
export function echoNames(names: readonly string[]): { names: string[]; count: number } {
  const sorted = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { names: sorted.slice(0, ECHO_MAX_NAMES).map(echoText), count: names.length };
}

/** `"a", "b", …` for a message: the names echoNames keeps, and an ellipsis for the rest. */
export function echoList(names: readonly string[]): string {
  const kept = echoNames(names);
  const listed = kept.names.map((n) => JSON.stringify(n)).join(", ");
  return kept.count > kept.names.length ? `${listed}, … (${kept.count} in all)` : listed;
}

/**
 * What to do about each error code a tool can return, grouped by the caller's next step
 * (the CLI-only codes, `CLI_ONLY_CODES`, are not tool errors). Typed against ErrorCode, so a renamed
 * code fails to compile; a unit test checks that every other code is listed once.
 */
export const TOOL_ERROR_GROUPS: readonly { action: string; codes: readonly ErrorCode[] }[] = [
  {
    action: "fix the arguments",
    codes: [
      "InvalidArgument",
      "UnknownWorkspace",
      "UnknownServer",
      "NoServerForFile",
      "AmbiguousServer",
      "PathOutsideWorkspace",
      "FileNotFound",
      "FileTooLarge",
      "NotUtf8",
    ],
  },
  {
    action: "fix the position (details.candidates lists the matches)",
    codes: ["PositionOutOfRange", "SymbolNotOnLine", "SymbolNotFound", "AmbiguousSymbol"],
  },
  { action: "page with the hint's limit, or narrow", codes: ["ResultTooLarge"] },
  { action: "call diagnostics without since", codes: ["SnapshotUnknown"] },
  { action: "this server cannot answer that", codes: ["ServerLacksCapability", "ServerError"] },
  { action: "retry", codes: ["RequestTimeout", "ReadyTimeout", "SessionLimit", "Cancelled"] },
  { action: "call session_restart", codes: ["SessionDead"] },
  { action: "start theodolite in the project's directory", codes: ["WorkspaceRefused"] },
  {
    action: "the setup needs fixing (see hint), then session_restart",
    codes: [
      "ServerNotFound",
      "ServerVersionMismatch",
      "ServerStartFailed",
      "ServerInitFailed",
      "WorkspaceFileMissing",
      "WorkspaceFileInvalid",
    ],
  },
  {
    action: "edit tools refused or failed; nothing half-written",
    codes: [
      "UnsupportedMethod",
      "GateDenied",
      "PayloadRejected",
      "ResourceOperationRejected",
      "EditInvalid",
      "EditIncomplete",
      "WorkspaceDrift",
      "ApplyFailed",
    ],
  },
  { action: "a bug; report it", codes: ["Internal"] },
];

/** The `initialize` result's instructions: the conventions every tool follows (SPEC §4). */
export const INSTRUCTIONS = [
  "theodolite answers code questions from pinned language servers, on the files as they are on disk.",
  "Positions: `line` 1-based; `column` 1-based in the bridge's column unit " +
    "(session_status.bridge.column_unit; code points by default). Instead of `column`, `symbol` is " +
    "the exact text on `line` (`occurrence` picks a repeat, 1-based). Without `line`, `symbol` is a " +
    "name or dotted path (`Box.size`, `Type.method`) among the file's document symbols; it must be unique.",
  "`file` is workspace-relative (or absolute inside the workspace). `workspace` may be omitted " +
    "when one is configured; `server` is routed by file extension and role.",
  "Results: a range is {line, column, end_line, end_column} (end exclusive, same units); a " +
    "location is a range with `file` (workspace-relative; absolute outside it; `uri` instead " +
    "for a non-file location), flattened into items that have one. Lists are in canonical order. `limit` (1..bridge.max_limit) and `offset` " +
    "page a list; the result says `total` and `next_offset`. Results never exceed " +
    "bridge.max_result_bytes and are never truncated.",
  "Errors are isError results whose text is JSON {code, message, hint?, details?}; `hint` says " +
    `what to do next. ${TOOL_ERROR_GROUPS.map((g) => `${g.codes.join(", ")}: ${g.action}.`).join(" ")}`,
].join("\n");
