/**
 * What the file tools share: argument schemas (SPEC §4.2), resolving
 * workspace → file → server → ready session → synced document, and turning a
 * client position into the server's. Tool files stay thin on top of this.
 */
import { z } from "zod";
import type { Role } from "../../config/types.ts";
import { BridgeError } from "../../errors.ts";
import { anchorColumn, clientToLsp, type LspPosition } from "../../lsp/positions.ts";
import { makeNormalizeContext } from "../../normalize/range-converter.ts";
import type { NormalizeContext } from "../../normalize/types.ts";
import { resolveWorkspace, routeOne } from "../../router.ts";
import type { OpenDocument } from "../../session/documents.ts";
import type { Session, WaitContext } from "../../session/session.ts";
import { readWorkspaceText } from "../../workspace/confined.ts";
import { resolveWorkspaceFile } from "../../workspace/files.ts";
import type { CallContext } from "../tool.ts";

export const workspaceArg = z
  .string()
  .min(1)
  .optional()
  .describe("Configured workspace name; optional when exactly one workspace is configured.");
export const serverArg = z
  .string()
  .min(1)
  .optional()
  .describe("Configured server name; optional: routed by file extension and role (SPEC §4.5).");
export const fileArg = z
  .string()
  .min(1)
  .describe("Workspace-relative path, or an absolute path inside the workspace root.");
export const lineArg = z.number().int().min(1).describe("1-based line number.");
export const columnArg = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe(
    "1-based column in the bridge's column unit (session_status.bridge.column_unit; default code points). Give `column` or `symbol`.",
  );
export const symbolArg = z
  .string()
  .min(1)
  .max(256)
  .optional()
  .describe(
    "Exact text on `line` to anchor the position at its first character, instead of `column`.",
  );
export const occurrenceArg = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe("Which occurrence of `symbol` on the line (1-based, default 1).");
export const limitArg = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe(
    "Page size, 1..bridge.max_limit (default bound 200). Without it every item is returned (or ResultTooLarge). The result says `total` and `next_offset`.",
  );
export const offsetArg = z
  .number()
  .int()
  .min(0)
  .optional()
  .describe("Items to skip (0-based), for paging.");

export const fileShape = { workspace: workspaceArg, server: serverArg, file: fileArg };
export const positionShape = {
  ...fileShape,
  line: lineArg,
  column: columnArg,
  symbol: symbolArg,
  occurrence: occurrenceArg,
};
export const pagingShape = { limit: limitArg, offset: offsetArg };

/** Output schema fragments (SPEC §4.3). */
export const rangeShape = {
  line: z.number().int(),
  column: z.number().int(),
  end_line: z.number().int(),
  end_column: z.number().int(),
};
export const locShape = { file: z.string().optional(), uri: z.string().optional(), ...rangeShape };
export const pagedShape = { total: z.number().int(), next_offset: z.number().int().optional() };

export interface FileArgs {
  workspace?: string | undefined;
  server?: string | undefined;
  file: string;
}

export interface PositionArgs extends FileArgs {
  line: number;
  column?: number | undefined;
  symbol?: string | undefined;
  occurrence?: number | undefined;
}

export interface FileCall {
  session: Session;
  doc: OpenDocument;
  rel: string;
  norm: NormalizeContext;
  wait: WaitContext;
}

export function waitContext(ctx: CallContext): WaitContext {
  return {
    signal: ctx.signal,
    onProgress: (message) => ctx.progress({ progress: 0, message }),
  };
}

/**
 * workspace → file checks → route → ready session → document synced, then `fn`.
 * File checks come first: a bad path never starts a server.
 */
export async function withFile<T>(
  ctx: CallContext,
  args: FileArgs,
  role: Role,
  fn: (call: FileCall) => Promise<T>,
): Promise<T> {
  const { config, sessions } = ctx.bridge;
  const ws = resolveWorkspace(config, args.workspace);
  const resolved = resolveWorkspaceFile(ws.root, args.file);
  const server = routeOne(config, ws, { server: args.server, file: resolved.abs, role });
  // read beneath the root (SPEC §8.1): what is read is what the path names now
  const { abs, rel, text, sha256 } = readWorkspaceText(
    ws.root,
    resolved.abs,
    config.bridge.max_file_bytes,
  );
  const session = sessions.get(ws.name, server.name);
  const wait = waitContext(ctx);
  return sessions.use(session, wait, async (s) => {
    const doc = s.syncDocument(abs, text, sha256);
    return fn({ session: s, doc, rel, norm: normalizeContext(ctx, s), wait });
  });
}

export function normalizeContext(ctx: CallContext, session: Session): NormalizeContext {
  const { config } = ctx.bridge;
  return makeNormalizeContext({
    root: session.workspace.root,
    encoding: session.encoding,
    unit: config.bridge.column_unit,
    readText: (abs) => {
      const open = session.documents.byPath(abs);
      if (open) return open.text;
      try {
        // server-named paths are untrusted: only files inside the workspace are read
        return readWorkspaceText(session.workspace.root, abs, config.bridge.max_file_bytes).text;
      } catch {
        return undefined;
      }
    },
  });
}

/** The client's position (column or symbol anchor) in the server's encoding (SPEC §4.2, §5). */
export function lspPosition(ctx: CallContext, call: FileCall, args: PositionArgs): LspPosition {
  const unit = ctx.bridge.config.bridge.column_unit;
  if (args.column !== undefined && args.symbol !== undefined) {
    throw new BridgeError("InvalidArgument", "give either `column` or `symbol`, not both", {
      hint: "use `symbol` to anchor on text, or `column` for an exact position",
    });
  }
  if (args.occurrence !== undefined && args.symbol === undefined) {
    throw new BridgeError("InvalidArgument", "`occurrence` needs `symbol`", {
      hint: "pass `symbol` with `occurrence`, or drop `occurrence`",
    });
  }
  let column = args.column;
  if (column === undefined) {
    if (args.symbol === undefined) {
      throw new BridgeError("InvalidArgument", "a position needs `column` or `symbol`", {
        hint: "pass `column` (1-based) or `symbol` (exact text on the line)",
      });
    }
    column = anchorColumn(call.doc.index, args.line, args.symbol, args.occurrence, unit);
  }
  return clientToLsp(call.doc.index, args.line, column, unit, call.session.encoding);
}

export function textDocumentPosition(ctx: CallContext, call: FileCall, args: PositionArgs) {
  return { textDocument: { uri: call.doc.uri }, position: lspPosition(ctx, call, args) };
}

/** `limit` within 1..bridge.max_limit (issue 8: a clear message naming the bound). */
export function checkLimit(ctx: CallContext, limit: number | undefined): number | undefined {
  const max = ctx.bridge.config.bridge.max_limit;
  if (limit !== undefined && limit > max) {
    throw new BridgeError("InvalidArgument", `limit must be within 1..${max}, got ${limit}`, {
      hint: `page with limit ≤ ${max} and offset`,
      details: { limit, max_limit: max },
    });
  }
  return limit;
}
