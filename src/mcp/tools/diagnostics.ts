/**
 * diagnostics (SPEC §4.1, §6): push and pull merged with per-diagnostic
 * channels; for one file (settled by the server's rule) or, without `file`,
 * everything accumulated for the workspace from its diagnostics servers.
 */
import { z } from "zod";
import { normalizeDiagnostics } from "../../normalize/diagnostics.ts";
import { compareDiagnostic } from "../../normalize/order.ts";
import { page } from "../../normalize/paging.ts";
import type { DiagnosticOut } from "../../normalize/types.ts";
import { candidateServers, resolveWorkspace } from "../../router.ts";
import { fileDiagnostics, workspaceDiagnostics } from "../../session/diagnostics-settle.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import {
  checkLimit,
  fileArg,
  locShape,
  normalizeContext,
  pagedShape,
  pagingShape,
  serverArg,
  waitContext,
  withFile,
  workspaceArg,
} from "./common.ts";
import { COMMON_ERRORS, pagedResult } from "./location-tool.ts";

const input = z
  .object({ workspace: workspaceArg, server: serverArg, file: fileArg.optional(), ...pagingShape })
  .strict();

const output = z.object({
  diagnostics: z.array(
    z.object({
      ...locShape,
      severity: z.enum(["error", "warning", "information", "hint"]),
      code: z.string().optional(),
      source: z.string().optional(),
      message: z.string(),
      channels: z.array(z.enum(["pull", "push"])),
    }),
  ),
  ...pagedShape,
});

export const diagnosticsTool = defineTool({
  name: "diagnostics",
  title: "Diagnostics",
  description:
    "Errors and warnings. With `file`: the file is synced from disk and the answer waits until " +
    "the server has published (or answered a pull) for exactly that content. Without `file`: " +
    "everything the workspace's diagnostics servers have reported so far (servers start if " +
    "needed). Returns {diagnostics: [{file, line, column, end_line, end_column, severity, code?, " +
    "source?, message, channels}], total, next_offset?} sorted by file, range, severity, code, " +
    "source, message; channels says whether each came by push, pull or both. " +
    `Errors: ${COMMON_ERRORS}.`,
  input,
  output,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) => {
    const limit = checkLimit(ctx, args.limit);
    const file = args.file;
    let all: DiagnosticOut[];
    if (file !== undefined) {
      all = await withFile(ctx, { ...args, file }, "diagnostics", async (call) => {
        const d = await fileDiagnostics(call.session, call.doc, call.wait);
        return normalizeDiagnostics(d.uri, d.push, d.pull, call.norm);
      });
    } else {
      const { config, sessions } = ctx.bridge;
      const ws = resolveWorkspace(config, args.workspace);
      const servers = candidateServers(config, ws, { server: args.server, role: "diagnostics" });
      const wait = waitContext(ctx);
      all = [];
      for (const server of servers) {
        const session = sessions.get(ws.name, server.name);
        const found = await sessions.use(session, wait, async (s) => {
          const norm = normalizeContext(ctx, s);
          const files = await workspaceDiagnostics(s, wait);
          return files.flatMap((d) => normalizeDiagnostics(d.uri, d.push, d.pull, norm));
        });
        all.push(...found);
      }
      all.sort(compareDiagnostic);
    }
    const p = page(all, limit, args.offset);
    return { result: pagedResult("diagnostics", p), count: p.items.length };
  },
});
