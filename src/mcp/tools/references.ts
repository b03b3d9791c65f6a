/**
 * references (SPEC §4.1): textDocument/references. Servers disagree on
 * `includeDeclaration: false` (SPEC §4.7); the bridge passes the flag through
 * and documents that the server decides.
 */

import { ReferencesRequest } from "vscode-languageserver-protocol";
import { z } from "zod";
import { locationTool } from "./location-tool.ts";

export const referencesTool = locationTool({
  name: "references",
  title: "Find references",
  request: ReferencesRequest.type,
  uses: true,
  provider: "referencesProvider",
  what: "Every reference to the symbol at a position, across the workspace.",
  extraShape: {
    include_declaration: z.boolean().optional().describe("Default true; servers differ on false."),
  },
  extraParams: (args) => ({ context: { includeDeclaration: args.include_declaration ?? true } }),
});
