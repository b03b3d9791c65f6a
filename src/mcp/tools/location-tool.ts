/**
 * The shape shared by definition, declaration, type_definition,
 * implementation and references: a position in, `{locations, total}` out
 * (SPEC §4.3), Location and LocationLink normalized alike, canonical order,
 * explicit paging.
 */

import type { ReferenceParams, ServerCapabilities } from "vscode-languageserver-protocol";
import { z } from "zod";
import {
  type LocationResult,
  normalizeLocations,
  withoutVanished,
} from "../../normalize/locations.ts";
import { page } from "../../normalize/paging.ts";
import type { LspRequest } from "../../session/rpc.ts";
import {
  checkPaging,
  locationOut,
  pagedResult,
  pagedShape,
  pagingShape,
  positionShape,
} from "../conventions.ts";
import { defineTool, READ_ONLY, type ToolDefinition } from "../tool.ts";
import {
  fileExists,
  sessionMarks,
  unconvertedField,
  usesMarks,
  vanishedField,
  withFile,
} from "./common.ts";
import { textDocumentPosition } from "./position.ts";

export const locationsOutput = z.object({
  locations: z.array(locationOut),
  ...pagedShape,
});

export function locationTool(spec: {
  name: string;
  title: string;
  /** the LSP request (`DefinitionRequest.type`…): a position in, locations out */
  request: LspRequest<Omit<ReferenceParams, "context"> & Partial<ReferenceParams>, LocationResult>;
  provider: keyof ServerCapabilities;
  /** the description: one line, what the tool answers */
  what: string;
  /** extra arguments beside the position (references: include_declaration) */
  extraShape?: z.ZodRawShape;
  /** extra LSP params from the arguments */
  extraParams?: (args: Record<string, unknown>) => Record<string, unknown>;
  /** an answer about the symbol's uses across files: it names the files outside the program */
  uses?: true;
}): ToolDefinition {
  const input = z.object({ ...positionShape, ...spec.extraShape, ...pagingShape }).strict();
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.what,
    input,
    output: locationsOutput,
    annotations: READ_ONLY,
    toolClass: "read",
    handler: async (args, ctx) => {
      const paging = checkPaging(ctx, args);
      return withFile(ctx, args, "semantics", async (call) => {
        call.session.requireCapability(spec.provider, spec.request.method);
        const raw = await call.session.request(
          spec.request,
          { ...(await textDocumentPosition(ctx, call, args)), ...spec.extraParams?.(args) },
          call.wait,
        );
        const { kept: all, vanished } = withoutVanished(
          await call.norm.convert(() => normalizeLocations(raw, call.norm)),
          fileExists(call.session, call.norm),
        );
        const p = page(all, paging);
        return {
          result: {
            ...pagedResult("locations", p),
            ...vanishedField(vanished),
            ...unconvertedField(call.norm.unconverted(), p.items),
            ...(spec.uses
              ? await usesMarks(call.session, call.rel)
              : sessionMarks(call.session, call.rel)),
          },
          count: p.items.length,
          pages: { key: "locations", items: all, offset: paging.offset },
        };
      });
    },
  });
}
