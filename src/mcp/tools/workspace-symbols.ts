/** workspace_symbols (SPEC §4.1): workspace/symbol with a bounded query (issue 8). */

import type { SymbolInformation, WorkspaceSymbol } from "vscode-languageserver-protocol";
import { z } from "zod";
import { BridgeError } from "../../errors.ts";
import { page } from "../../normalize/paging.ts";
import { normalizeWorkspaceSymbols } from "../../normalize/symbols.ts";
import { resolveWorkspace, routeOne } from "../../router.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import {
  checkLimit,
  normalizeContext,
  pagedShape,
  pagingShape,
  rangeShape,
  serverArg,
  waitContext,
  workspaceArg,
} from "./common.ts";
import { COMMON_ERRORS, pagedResult } from "./location-tool.ts";

const input = z
  .object({
    workspace: workspaceArg,
    server: serverArg,
    query: z
      .string()
      .describe("Symbol name or fragment; 1..bridge.max_query_length characters (default 128)."),
    ...pagingShape,
  })
  .strict();

const partialRange = Object.fromEntries(
  Object.entries(rangeShape).map(([k, v]) => [k, v.optional()]),
) as { [K in keyof typeof rangeShape]: z.ZodOptional<(typeof rangeShape)[K]> };

const output = z.object({
  symbols: z.array(
    z.object({
      name: z.string(),
      kind: z.string(),
      container: z.string().optional(),
      file: z.string().optional(),
      uri: z.string().optional(),
      ...partialRange,
    }),
  ),
  ...pagedShape,
});

export const workspaceSymbolsTool = defineTool({
  name: "workspace_symbols",
  title: "Workspace symbols",
  description:
    "Symbols matching `query` across the workspace (the server decides how it matches): " +
    "{symbols: [{name, kind, container?, file, line, column, end_line, end_column}], total, " +
    "next_offset?} in canonical order (file, position, name). The query must be 1..max " +
    "characters (bridge.max_query_length, default 128). Routed to the workspace's single semantics server " +
    `unless \`server\` is given. Errors: ${COMMON_ERRORS}.`,
  input,
  output,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) => {
    const { config, sessions } = ctx.bridge;
    const max = config.bridge.max_query_length;
    if (args.query.length < 1 || args.query.length > max) {
      throw new BridgeError(
        "InvalidArgument",
        `query must be 1..${max} characters, got ${args.query.length}`,
        {
          hint:
            args.query.length === 0
              ? "pass a symbol name or fragment"
              : `shorten the query to at most ${max} characters`,
          details: { length: args.query.length, max_query_length: max },
        },
      );
    }
    const limit = checkLimit(ctx, args.limit);
    const ws = resolveWorkspace(config, args.workspace);
    const server = routeOne(config, ws, { server: args.server, role: "semantics" });
    const session = sessions.get(ws.name, server.name);
    const wait = waitContext(ctx);
    return sessions.use(session, wait, async (s) => {
      s.requireCapability("workspaceSymbolProvider", "workspace/symbol");
      const raw = await s.request<SymbolInformation[] | WorkspaceSymbol[] | null>(
        "workspace/symbol",
        { query: args.query },
        wait,
      );
      const p = page(normalizeWorkspaceSymbols(raw, normalizeContext(ctx, s)), limit, args.offset);
      return { result: pagedResult("symbols", p), count: p.items.length };
    });
  },
});
