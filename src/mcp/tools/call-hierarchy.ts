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
import {
  type CallDirection,
  normalizeCalls,
  pickCallItem,
} from "../../normalize/call-hierarchy.ts";
import {
  checkPaging,
  locFields,
  pagedShape,
  pagingShape,
  positionShape,
  rangeOut,
} from "../conventions.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { type FileCall, requestOrLacks, withFile } from "./common.ts";
import { hierarchyLevel } from "./hierarchy.ts";

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
function callsOf(call: FileCall, direction: CallDirection, item: CallHierarchyItem) {
  const request =
    direction === "incoming"
      ? CallHierarchyIncomingCallsRequest.type
      : CallHierarchyOutgoingCallsRequest.type;
  return requestOrLacks<CallHierarchyIncomingCallsParams, unknown>(call, request, { item });
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
    return withFile(ctx, args, "semantics", (call) =>
      hierarchyLevel(ctx, call, args, paging, {
        provider: "callHierarchyProvider",
        prepare: CallHierarchyPrepareRequest.type,
        key: "calls",
        pick: pickCallItem,
        next: (c, item) => callsOf(c, args.direction, item),
        entries: (raw, item, norm) => normalizeCalls(raw, args.direction, item.uri, norm),
      }),
    );
  },
});
