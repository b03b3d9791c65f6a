/**
 * The shape shared by definition, declaration, type_definition,
 * implementation and references: a position in, `{locations, total}` out
 * (SPEC §4.3), Location and LocationLink normalized alike, canonical order,
 * explicit paging.
 */

import type { ServerCapabilities } from "vscode-languageserver-protocol";
import { z } from "zod";
import { type LocationResult, normalizeLocations } from "../../normalize/locations.ts";
import { page } from "../../normalize/paging.ts";
import { defineTool, READ_ONLY, type ToolDefinition } from "../tool.ts";
import {
  checkLimit,
  locShape,
  pagedShape,
  pagingShape,
  positionShape,
  textDocumentPosition,
  withFile,
} from "./common.ts";

export const locationsOutput = z.object({
  locations: z.array(z.object(locShape)),
  ...pagedShape,
});

export const POSITION_CONVENTION =
  "Positions are 1-based lines and 1-based columns in the bridge's column unit (code points " +
  "unless configured; session_status.bridge.column_unit); give `column`, or `symbol` (exact text " +
  "on the line) with optional `occurrence`. Result paths are workspace-relative (absolute outside " +
  "the workspace).";

export const COMMON_ERRORS =
  "InvalidArgument, UnknownWorkspace, UnknownServer, NoServerForFile, AmbiguousServer, " +
  "PathOutsideWorkspace, FileNotFound, FileTooLarge, NotUtf8, PositionOutOfRange, SymbolNotOnLine, " +
  "ServerNotFound, ServerVersionMismatch, ServerStartFailed, ServerInitFailed, " +
  "WorkspaceFileMissing, WorkspaceFileInvalid, ReadyTimeout, " +
  "SessionDead, SessionLimit, ServerLacksCapability, RequestTimeout, ServerError, Cancelled, " +
  "ResultTooLarge";

export function locationTool(spec: {
  name: string;
  title: string;
  method: string;
  provider: keyof ServerCapabilities;
  what: string;
  /** extra arguments beside the position (references: include_declaration) */
  extraShape?: z.ZodRawShape;
  /** extra LSP params from the arguments */
  extraParams?: (args: Record<string, unknown>) => Record<string, unknown>;
}): ToolDefinition {
  const input = z.object({ ...positionShape, ...spec.extraShape, ...pagingShape }).strict();
  return defineTool({
    name: spec.name,
    title: spec.title,
    description:
      `${spec.what} Returns {locations: [{file, line, column, end_line, end_column}], total, ` +
      `next_offset?} in canonical order (file, then position). ${POSITION_CONVENTION} Errors: ${COMMON_ERRORS}.`,
    input,
    output: locationsOutput,
    annotations: READ_ONLY,
    toolClass: "read",
    handler: async (args, ctx) => {
      const limit = checkLimit(ctx, args.limit);
      return withFile(ctx, args, "semantics", async (call) => {
        call.session.requireCapability(spec.provider, spec.method);
        const raw = await call.session.request<LocationResult>(
          spec.method,
          { ...textDocumentPosition(ctx, call, args), ...spec.extraParams?.(args) },
          call.wait,
        );
        const p = page(normalizeLocations(raw, call.norm), limit, args.offset);
        return { result: pagedResult("locations", p), count: p.items.length };
      });
    },
  });
}

/** `{[key]: items, total, next_offset?}` with keys in a fixed order (deterministic bytes). */
export function pagedResult<T>(
  key: string,
  p: { items: T[]; total: number; next_offset?: number },
): Record<string, unknown> {
  const out: Record<string, unknown> = { [key]: p.items, total: p.total };
  if (p.next_offset !== undefined) out.next_offset = p.next_offset;
  return out;
}
