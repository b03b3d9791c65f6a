/**
 * type_hierarchy (SPEC §4.1): textDocument/prepareTypeHierarchy at the position, then
 * typeHierarchy/supertypes or subtypes for the item — one level per call; the caller walks
 * further from the types' positions.
 */
import {
  type TypeHierarchyItem,
  TypeHierarchyPrepareRequest,
  type TypeHierarchySubtypesParams,
  TypeHierarchySubtypesRequest,
  TypeHierarchySupertypesRequest,
} from "vscode-languageserver-protocol";
import { z } from "zod";
import { normalizeTypes, pickTypeItem } from "../../normalize/type-hierarchy.ts";
import {
  checkPaging,
  locationOut,
  pagedShape,
  pagingShape,
  positionShape,
} from "../conventions.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { requestOrLacks, withFile } from "./common.ts";
import { hierarchyLevel } from "./hierarchy.ts";

const input = z
  .object({ ...positionShape, direction: z.enum(["supertypes", "subtypes"]), ...pagingShape })
  .strict();

// items are call_hierarchy's `{name, kind, file, …range}` (SPEC §4.3): listed there once
const output = z.object({
  item: locationOut.nullable(),
  types: z.array(locationOut),
  ...pagedShape,
});

const LEVELS = {
  supertypes: TypeHierarchySupertypesRequest.type,
  subtypes: TypeHierarchySubtypesRequest.type,
} as const;

export const typeHierarchyTool = defineTool({
  name: "type_hierarchy",
  title: "Type hierarchy",
  description: "Supertypes or subtypes of the type at a position, one level.",
  input,
  output,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) => {
    const paging = checkPaging(ctx, args);
    return withFile(ctx, args, "semantics", (call) =>
      hierarchyLevel(ctx, call, args, paging, {
        provider: "typeHierarchyProvider",
        prepare: TypeHierarchyPrepareRequest.type,
        key: "types",
        pick: pickTypeItem,
        // MethodNotFound for the direction is ServerLacksCapability
        next: (c, item: TypeHierarchyItem) =>
          requestOrLacks<TypeHierarchySubtypesParams, unknown>(c, LEVELS[args.direction], {
            item,
          }),
        entries: (raw, _item, norm) => normalizeTypes(raw, norm),
      }),
    );
  },
});
