/**
 * code_actions (SPEC §4.1, §7.3): list only — title, kind, preferred,
 * disabled reason, has_edit, has_command — never the payload. Actions are
 * resolved where needed to know whether they carry an edit. For a client
 * with the apply class, each action with an edit gets a single-use handle;
 * the edit and the target hashes stay in the bridge.
 */

import type {
  CodeAction,
  Command,
  Diagnostic,
  Range as LspRangeT,
} from "vscode-languageserver-protocol";
import { z } from "zod";
import { planHandle } from "../../apply/handle-plan.ts";
import { clientToLsp } from "../../lsp/positions.ts";
import { isBareCommand, summarizeCodeAction } from "../../normalize/code-actions.ts";
import { page } from "../../normalize/paging.ts";
import { fileDiagnostics } from "../../session/diagnostics-settle.ts";
import type { Session, WaitContext } from "../../session/session.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import {
  checkLimit,
  lspPosition,
  pagedShape,
  pagingShape,
  positionShape,
  withFile,
} from "./common.ts";
import { COMMON_ERRORS, POSITION_CONVENTION, pagedResult } from "./location-tool.ts";

const input = z
  .object({
    ...positionShape,
    end_line: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("1-based end line of the range (default: the start)."),
    end_column: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("1-based end column (default: the start column, or the line end with end_line)."),
    only: z
      .array(z.string().min(1))
      .max(16)
      .optional()
      .describe("Only these action kinds (e.g. quickfix)."),
    ...pagingShape,
  })
  .strict();

const output = z.object({
  actions: z.array(
    z.object({
      title: z.string(),
      kind: z.string().optional(),
      preferred: z.boolean(),
      disabled: z.string().optional(),
      has_edit: z.boolean(),
      has_command: z.boolean(),
      handle: z.string().optional(),
    }),
  ),
  ...pagedShape,
});

function before(
  a: { line: number; character: number },
  b: { line: number; character: number },
): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

/** Diagnostics overlapping the range, exactly as the server published them (SPEC §6). */
export function overlapping(diags: Diagnostic[], range: LspRangeT): Diagnostic[] {
  return diags.filter(
    (d) => !before(d.range.end, range.start) && !before(range.end, d.range.start),
  );
}

function resolvable(session: Session): boolean {
  const p = session.capabilities?.codeActionProvider;
  return typeof p === "object" && p !== null && p.resolveProvider === true;
}

async function resolveIfNeeded(
  session: Session,
  a: CodeAction,
  wait: WaitContext,
): Promise<CodeAction> {
  if (a.edit !== undefined || a.data === undefined || !resolvable(session)) return a;
  try {
    return (await session.request<CodeAction>("codeAction/resolve", a, wait)) ?? a;
  } catch {
    return a; // unresolvable: listed as it came, without an edit
  }
}

export const codeActionsTool = defineTool({
  name: "code_actions",
  title: "List code actions",
  description:
    "Quick fixes and refactorings the server offers at a position or range, listed only: " +
    "{actions: [{title, kind?, preferred, disabled?, has_edit, has_command, handle?}], total, " +
    "next_offset?}. Nothing is executed and no edit payload is returned. The file's current " +
    "diagnostics overlapping the range are sent as context (servers offer quick fixes only for " +
    "them). `handle` appears only for clients allowed to apply (mutation gate) on actions that " +
    `carry an edit; pass it to code_action_apply. ${POSITION_CONVENTION} Errors: ${COMMON_ERRORS}.`,
  input,
  output,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) => {
    const limit = checkLimit(ctx, args.limit);
    const unit = ctx.bridge.config.bridge.column_unit;
    return withFile(ctx, args, "semantics", async (call) => {
      const { session, doc } = call;
      session.requireCapability("codeActionProvider", "textDocument/codeAction");
      const start = lspPosition(ctx, call, args);
      let end = start;
      if (args.end_line !== undefined) {
        const endCol = args.end_column ?? doc.index.lineText(args.end_line - 1).length + 1;
        end = clientToLsp(doc.index, args.end_line, endCol, unit, session.encoding);
      } else if (args.end_column !== undefined) {
        end = clientToLsp(doc.index, args.line, args.end_column, unit, session.encoding);
      }
      const range = { start, end };
      const diags = session.server.roles.includes("diagnostics")
        ? await fileDiagnostics(session, doc, call.wait)
        : {
            push: session.diagnostics.push(doc.uri)?.items,
            pull: session.diagnostics.pull(doc.uri)?.items,
          };
      const context = {
        diagnostics: overlapping([...(diags.push ?? []), ...(diags.pull ?? [])], range),
        ...(args.only ? { only: args.only } : {}),
        triggerKind: 1,
      };
      const raw =
        (await session.request<(CodeAction | Command)[] | null>(
          "textDocument/codeAction",
          { textDocument: { uri: doc.uri }, range, context },
          call.wait,
        )) ?? [];
      const canApply = ctx.bridge.applyClassFor(ctx.client);
      const actions: Record<string, unknown>[] = [];
      for (const item of raw) {
        const action = isBareCommand(item) ? item : await resolveIfNeeded(session, item, call.wait);
        const summary: Record<string, unknown> = { ...summarizeCodeAction(action) };
        // a disabled action is not applicable, so it gets no handle
        if (
          canApply &&
          !isBareCommand(action) &&
          action.edit !== undefined &&
          action.disabled === undefined
        ) {
          const handle = planHandle(
            ctx.bridge.handles,
            session,
            action.title,
            action.edit,
            ctx.bridge.config.bridge.max_file_bytes,
          );
          if (handle !== undefined) summary.handle = handle;
        }
        actions.push(summary);
      }
      const p = page(actions, limit, args.offset);
      return { result: pagedResult("actions", p), count: p.items.length };
    });
  },
});
