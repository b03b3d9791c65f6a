/** workspace_symbols (SPEC §4.1): workspace/symbol with a bounded query (SPEC §3 max_query_length). */

import { WorkspaceSymbolRequest } from "vscode-languageserver-protocol";
import { z } from "zod";
import { withoutVanished } from "../../normalize/locations.ts";
import { page } from "../../normalize/paging.ts";
import { normalizeWorkspaceSymbols } from "../../normalize/symbols.ts";
import { resolveWorkspace, routeOne } from "../../router.ts";
import {
  checkPaging,
  locFields,
  pagedResult,
  pagedShape,
  pagingShape,
  serverArg,
  workspaceArg,
} from "../conventions.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import {
  fileExists,
  normalizeContext,
  unconvertedField,
  vanishedField,
  waitContext,
  workspaceMarks,
} from "./common.ts";
import { queryLength } from "./tool-errors.ts";

const input = z
  .object({
    workspace: workspaceArg,
    server: serverArg,
    query: z.string().describe("Name or fragment, 1..bridge.max_query_length characters."),
    ...pagingShape,
  })
  .strict();

const output = z.object({
  symbols: z.array(
    z.object({
      name: z.string(),
      kind: z.string(),
      container: z.string().optional(),
      ...locFields,
    }),
  ),
  ...pagedShape,
});

export const workspaceSymbolsTool = defineTool({
  name: "workspace_symbols",
  title: "Workspace symbols",
  description: "Symbols matching `query` across the workspace (the server decides how it matches).",
  input,
  output,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) => {
    const { config, sessions } = ctx.bridge;
    const max = config.bridge.max_query_length;
    if (args.query.length < 1 || args.query.length > max) {
      throw queryLength(args.query.length, max);
    }
    const paging = checkPaging(ctx, args);
    const ws = resolveWorkspace(config, args.workspace);
    const server = routeOne(config, ws, {
      server: args.server,
      role: "semantics",
      workspaceSymbols: true,
    });
    const session = sessions.get(ws.name, server.name);
    const wait = waitContext(ctx);
    return sessions.use(session, wait, async (s) => {
      s.requireCapability("workspaceSymbolProvider", "workspace/symbol");
      const raw = await s.request(WorkspaceSymbolRequest.type, { query: args.query }, wait);
      const norm = normalizeContext(ctx, s);
      const { kept: all, vanished } = withoutVanished(
        await norm.convert(() => normalizeWorkspaceSymbols(raw, norm)),
        fileExists(s, norm),
      );
      const p = page(all, paging);
      return {
        result: {
          ...pagedResult("symbols", p),
          ...vanishedField(vanished),
          ...unconvertedField(norm.unconverted(), p.items),
          ...(await workspaceMarks(s)),
        },
        count: p.items.length,
        pages: { key: "symbols", items: all, offset: paging.offset },
      };
    });
  },
});
