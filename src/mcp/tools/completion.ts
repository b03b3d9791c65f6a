/**
 * completion (SPEC §4.1): textDocument/completion at a position, invoked (no trigger
 * character), the items in a deterministic order and paged — 50 a page unless `limit`
 * says — and on request (`resolve: n`) the first n items of the page resolved for their
 * documentation.
 */
import {
  CompletionRequest,
  CompletionResolveRequest,
  CompletionTriggerKind,
} from "vscode-languageserver-protocol";
import { z } from "zod";
import {
  type CompletionEntry,
  normalizeCompletion,
  withDocumentation,
} from "../../normalize/completion.ts";
import { page } from "../../normalize/paging.ts";
import { offersPull, settlePush } from "../../session/diagnostics-settle.ts";
import { malformedAnswerError } from "../../session/session-errors.ts";
import {
  checkPaging,
  pagedResult,
  pagedShape,
  pagingShape,
  positionShape,
} from "../conventions.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { type FileCall, resolveOrKeep, sessionMarks, withFile } from "./common.ts";
import { textDocumentPosition } from "./position.ts";
import { outsideBounds } from "./tool-errors.ts";

/** A page without `limit`: completion lists run to thousands of items. */
export const COMPLETION_PAGE = 50;
/** The most items one call resolves. */
export const MAX_RESOLVE = 20;

const input = z
  .object({ ...positionShape, ...pagingShape, resolve: z.number().int().optional() })
  .strict();
const output = z.object({
  items: z.array(z.object({})),
  ...pagedShape,
  is_incomplete: z.boolean(),
});

function checkResolve(resolve: number | undefined): number {
  if (resolve === undefined) return 0;
  if (resolve < 0 || resolve > MAX_RESOLVE) {
    const hint = `resolve at most ${MAX_RESOLVE} items of a page; page with offset for more`;
    throw outsideBounds("resolve", 0, MAX_RESOLVE, resolve, hint);
  }
  return resolve;
}

/** completionItem/resolve where the server offers it; its own refusal leaves the item as it is. */
function resolveItem(call: FileCall, entry: CompletionEntry): Promise<unknown> {
  const provider = call.session.process.capabilities?.completionProvider;
  if (provider?.resolveProvider !== true) return Promise.resolve(undefined);
  return resolveOrKeep(call.session, CompletionResolveRequest.type, entry.raw, call.wait);
}

/**
 * clangd completes in a document it has not built yet from the words of the file alone (its
 * fallback, docs/LANGUAGE-SERVERS.md#clangd-completes-before-it-builds): a diagnostics
 * server that publishes per version has built the version it published for, so that
 * publish comes first — as `diagnostics` awaits it (SPEC §6).
 */
async function built(call: FileCall): Promise<void> {
  const { server, settle } = call.session;
  if (!server.roles.includes("diagnostics") || !settle.perVersion(offersPull(call.session))) return;
  await settlePush(call.session, call.doc, call.wait);
}

export const completionTool = defineTool({
  name: "completion",
  title: "Completion",
  description: "Completions at a position: label, kind, detail, insert text.",
  input,
  output,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) => {
    const paging = checkPaging(ctx, args);
    const resolve = checkResolve(args.resolve);
    const limit = paging.limit ?? Math.min(COMPLETION_PAGE, ctx.bridge.config.bridge.max_limit);
    return withFile(ctx, args, "semantics", async (call) => {
      const { session } = call;
      const { method } = CompletionRequest.type;
      session.requireCapability("completionProvider", method);
      const at = await textDocumentPosition(ctx, call, args);
      await built(call);
      const context = { triggerKind: CompletionTriggerKind.Invoked };
      const raw: unknown = await session.request(
        CompletionRequest.type,
        { ...at, context },
        call.wait,
      );
      const answer = await call.norm.convert(() =>
        normalizeCompletion(raw, at.position, call.doc.uri, call.norm),
      );
      if (answer === undefined) {
        throw malformedAnswerError(session.server.name, method, "completion list");
      }
      const all = answer.entries.map((e) => e.out);
      const p = page(all, { limit, offset: paging.offset });
      for (let i = 0; i < Math.min(resolve, p.items.length); i++) {
        const entry = answer.entries[paging.offset + i] as CompletionEntry;
        const shown = withDocumentation(entry, await resolveItem(call, entry), call.norm);
        p.items[i] = shown;
        all[paging.offset + i] = shown;
      }
      return {
        result: {
          ...pagedResult("items", p),
          is_incomplete: answer.isIncomplete,
          ...sessionMarks(session, call.rel),
        },
        count: p.items.length,
        pages: { key: "items", items: all, offset: paging.offset },
      };
    });
  },
});
