/**
 * code_actions (SPEC §4.1, §7.3): list only — title, kind, preferred,
 * disabled reason, has_edit, has_command — never the payload. Actions are
 * resolved where needed to know whether they carry an edit. For a client
 * with the apply class, each action with an edit gets a single-use handle;
 * the edit, the target hashes and what the listing could vouch for stay in the
 * bridge (the files changed in this session are loaded first, SPEC §7.3).
 */

import {
  type CodeAction,
  CodeActionRequest,
  CodeActionResolveRequest,
  CodeActionTriggerKind,
  type Diagnostic,
  type Range as LspRangeT,
} from "vscode-languageserver-protocol";
import { z } from "zod";
import { planHandle } from "../../apply/handle-plan.ts";
import {
  codeActionItems,
  isBareCommand,
  summarizeCodeAction,
} from "../../normalize/code-actions.ts";
import { page } from "../../normalize/paging.ts";
import { isLspRange } from "../../normalize/range-converter.ts";
import { fileDiagnostics } from "../../session/diagnostics-settle.ts";
import type { Session, WaitContext } from "../../session/session.ts";
import { clientToLsp, readToAnswer } from "../../text/positions.ts";
import {
  checkPaging,
  pagedResult,
  pagedShape,
  pagingShape,
  positionShape,
} from "../conventions.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { resolveOrKeep, sessionMarks, withFile } from "./common.ts";
import { lineEndColumn } from "./line-range.ts";
import { resolvePosition } from "./position.ts";
import { loadChangedForListing, unloaded } from "./vouch.ts";

const input = z
  .object({
    ...positionShape,
    end_line: z.number().int().min(1).optional().describe("Range end (default: the position)."),
    end_column: z.number().int().min(1).optional(),
    only: z.array(z.string()).max(16).optional().describe("Kinds, e.g. quickfix."),
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

/**
 * Diagnostics overlapping the range, exactly as the server published them (SPEC §6); one
 * without a well-formed range overlaps nothing (server output is untrusted, SPEC §8).
 */
export function overlapping(diags: Diagnostic[], range: LspRangeT): Diagnostic[] {
  return diags.filter(
    (d) =>
      isLspRange(d?.range) &&
      !before(d.range.end, range.start) &&
      !before(range.end, d.range.start),
  );
}

function resolvable(session: Session): boolean {
  const p = session.process.capabilities?.codeActionProvider;
  return typeof p === "object" && p !== null && p.resolveProvider === true;
}

async function resolveIfNeeded(
  session: Session,
  a: CodeAction,
  wait: WaitContext,
): Promise<CodeAction> {
  if (a.edit !== undefined || a.data === undefined || !resolvable(session)) return a;
  // the server's refusal, or an answer that is not an action at all, lists it as it came
  const resolved: unknown = await resolveOrKeep(session, CodeActionResolveRequest.type, a, wait);
  return typeof resolved === "object" && resolved !== null ? (resolved as CodeAction) : a;
}

export const codeActionsTool = defineTool({
  name: "code_actions",
  title: "List code actions",
  description:
    "Quick fixes and refactorings at a position or range, listed only; a `handle` goes to code_action_apply.",
  input,
  output,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) => {
    const paging = checkPaging(ctx, args);
    const unit = ctx.bridge.config.bridge.column_unit;
    return withFile(ctx, args, "semantics", async (call) => {
      const { session, doc } = call;
      session.requireCapability("codeActionProvider", "textDocument/codeAction");
      const at = await resolvePosition(ctx, call, args);
      const start = at.lsp;
      let end = start;
      if (args.end_line !== undefined) {
        const endCol = args.end_column ?? lineEndColumn(doc.index, args.end_line, unit);
        end = clientToLsp(doc.index, args.end_line, endCol, unit, session.process.encoding);
      } else if (args.end_column !== undefined) {
        end = clientToLsp(doc.index, at.line, args.end_column, unit, session.process.encoding);
      }
      const range = { start, end };
      const canApply = ctx.bridge.applyClassFor(ctx.client);
      // edits handed out as handles are computed with the changed files loaded (SPEC §7.3)
      const listing = canApply ? await loadChangedForListing(call) : undefined;
      const diags = session.server.roles.includes("diagnostics")
        ? await fileDiagnostics(session, doc, call.wait)
        : {
            push: session.diagnostics.push(doc.uri)?.items,
            pull: session.diagnostics.pull(doc.uri)?.items,
          };
      // the diagnostics are counted in the lines of its answers (SPEC §5)
      const enc = session.process.encoding;
      const answered = {
        start: readToAnswer(doc.index, start, enc),
        end: readToAnswer(doc.index, end, enc),
      };
      const context = {
        diagnostics: overlapping([...(diags.push ?? []), ...(diags.pull ?? [])], answered),
        ...(args.only ? { only: args.only } : {}),
        triggerKind: CodeActionTriggerKind.Invoked,
      };
      const raw = codeActionItems(
        await session.request(
          CodeActionRequest.type,
          { textDocument: { uri: doc.uri }, range, context },
          call.wait,
        ),
      );
      const vouch = listing && {
        ...listing,
        unloaded: unloaded(session, session.changedFiles.since(0)),
      };
      const actions: Record<string, unknown>[] = [];
      for (const item of raw) {
        const action = isBareCommand(item) ? item : await resolveIfNeeded(session, item, call.wait);
        const summary: Record<string, unknown> = { ...summarizeCodeAction(action) };
        // a disabled action is not applicable, so it gets no handle
        if (
          vouch &&
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
            vouch,
          );
          if (handle !== undefined) summary.handle = handle;
        }
        actions.push(summary);
      }
      const p = page(actions, paging);
      return {
        result: { ...pagedResult("actions", p), ...sessionMarks(session, call.rel) },
        count: p.items.length,
        pages: { key: "actions", items: actions, offset: paging.offset },
      };
    });
  },
});
