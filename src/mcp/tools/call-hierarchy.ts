/**
 * call_hierarchy (SPEC §4.1): textDocument/prepareCallHierarchy at the
 * position, then callHierarchy/incomingCalls or outgoingCalls for the item —
 * one level per call; the caller walks further from the entries' positions.
 */
import {
  type CallHierarchyIncomingCallsParams,
  CallHierarchyIncomingCallsRequest,
  type CallHierarchyItem,
  CallHierarchyOutgoingCallsRequest,
  CallHierarchyPrepareRequest,
} from "vscode-languageserver-protocol";
import { z } from "zod";
import { isBridgeError } from "../../errors.ts";
import {
  type CallDirection,
  normalizeCalls,
  pickCallItem,
} from "../../normalize/call-hierarchy.ts";
import { page } from "../../normalize/paging.ts";
import { lacksCapability } from "../../session/server-capabilities.ts";
import {
  checkPaging,
  locFields,
  pagedResult,
  pagedShape,
  pagingShape,
  positionShape,
  rangeOut,
} from "../conventions.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { type FileCall, unconvertedField, usesMarks, withFile } from "./common.ts";
import { textDocumentPosition } from "./position.ts";

/** JSON-RPC "method not found": a server that offers the provider but not this direction. */
const METHOD_NOT_FOUND = -32601;

const input = z
  .object({
    ...positionShape,
    direction: z.enum(["incoming", "outgoing"]).describe("incoming: callers; outgoing: callees."),
    ...pagingShape,
  })
  .strict();

const itemShape = { name: z.string(), kind: z.string(), ...locFields };
const output = z.object({
  item: z.object(itemShape).nullable(),
  calls: z.array(z.object({ ...itemShape, sites: z.array(rangeOut) })),
  ...pagedShape,
});

/** One level of calls; MethodNotFound for the direction is ServerLacksCapability. */
async function callsOf(
  call: FileCall,
  direction: CallDirection,
  item: CallHierarchyItem,
): Promise<unknown> {
  const request =
    direction === "incoming"
      ? CallHierarchyIncomingCallsRequest.type
      : CallHierarchyOutgoingCallsRequest.type;
  const { method } = request;
  try {
    return await call.session.request<CallHierarchyIncomingCallsParams, unknown>(
      request,
      { item },
      call.wait,
    );
  } catch (err) {
    if (isBridgeError(err, "ServerError") && err.details?.lsp_code === METHOD_NOT_FOUND) {
      throw lacksCapability(call.session.server.name, method);
    }
    throw err;
  }
}

export const callHierarchyTool = defineTool({
  name: "call_hierarchy",
  title: "Call hierarchy",
  description:
    "Callers (incoming) or callees (outgoing) of the function at a position, one level, each with its call `sites` (ranges in the caller's file).",
  input,
  output,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) => {
    const paging = checkPaging(ctx, args);
    return withFile(ctx, args, "semantics", async (call) => {
      call.session.requireCapability("callHierarchyProvider", "textDocument/prepareCallHierarchy");
      const prepared = await call.session.request(
        CallHierarchyPrepareRequest.type,
        await textDocumentPosition(ctx, call, args),
        call.wait,
      );
      const picked = await call.norm.convert(() => pickCallItem(prepared, call.norm));
      const marks = await usesMarks(call.session, call.rel);
      if (!picked) {
        return { result: { item: null, calls: [], total: 0, ...marks }, count: 0 };
      }
      const raw = await callsOf(call, args.direction, picked.raw);
      const uri = picked.raw.uri;
      const all = await call.norm.convert(() =>
        normalizeCalls(raw, args.direction, uri, call.norm),
      );
      const p = page(all, paging);
      const unconverted = unconvertedField(call.norm.unconverted(), [picked.out, ...p.items]);
      return {
        result: { item: picked.out, ...pagedResult("calls", p), ...unconverted, ...marks },
        count: p.items.length,
        pages: { key: "calls", items: all, offset: paging.offset },
      };
    });
  },
});
