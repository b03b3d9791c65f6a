/**
 * references (SPEC §4.1): textDocument/references. Servers disagree on
 * `includeDeclaration: false` (LANGUAGE-SERVERS.md trap 11); the bridge passes
 * the flag through and documents that the server decides.
 */

import type { Location } from "vscode-languageserver-protocol";
import { z } from "zod";
import { normalizeLocations } from "../../normalize/locations.ts";
import { page } from "../../normalize/paging.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import {
  checkLimit,
  pagingShape,
  positionShape,
  textDocumentPosition,
  withFile,
} from "./common.ts";
import {
  COMMON_ERRORS,
  locationsOutput,
  POSITION_CONVENTION,
  pagedResult,
} from "./location-tool.ts";

const input = z
  .object({
    ...positionShape,
    include_declaration: z
      .boolean()
      .optional()
      .describe(
        "Include the declaration itself (default true). Servers interpret `false` differently.",
      ),
    ...pagingShape,
  })
  .strict();

export const referencesTool = defineTool({
  name: "references",
  title: "Find references",
  description:
    "Every reference to the symbol at the position across the workspace, including its " +
    "declaration unless include_declaration is false (typescript-language-server ignores false; " +
    "pyright drops the reference under the cursor instead). Returns {locations, total, " +
    `next_offset?} in canonical order. ${POSITION_CONVENTION} Errors: ${COMMON_ERRORS}.`,
  input,
  output: locationsOutput,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) => {
    const limit = checkLimit(ctx, args.limit);
    return withFile(ctx, args, "semantics", async (call) => {
      call.session.requireCapability("referencesProvider", "textDocument/references");
      const raw = await call.session.request<Location[] | null>(
        "textDocument/references",
        {
          ...textDocumentPosition(ctx, call, args),
          context: { includeDeclaration: args.include_declaration ?? true },
        },
        call.wait,
      );
      const p = page(normalizeLocations(raw, call.norm), limit, args.offset);
      return { result: pagedResult("locations", p), count: p.items.length };
    });
  },
});
