/**
 * references (SPEC §4.1): textDocument/references. Servers disagree on
 * `includeDeclaration: false` (LANGUAGE-SERVERS.md trap 11); the bridge passes
 * the flag through and documents that the server decides.
 */
import { z } from "zod";
import { locationTool } from "./location-tool.ts";

export const referencesTool = locationTool({
  name: "references",
  title: "Find references",
  method: "textDocument/references",
  provider: "referencesProvider",
  what:
    "Every reference to the symbol at the position across the workspace, including its " +
    "declaration unless include_declaration is false (typescript-language-server ignores false; " +
    "pyright drops the reference under the cursor instead).",
  extraShape: {
    include_declaration: z
      .boolean()
      .optional()
      .describe(
        "Include the declaration itself (default true). Servers interpret `false` differently.",
      ),
  },
  extraParams: (args) => ({ context: { includeDeclaration: args.include_declaration ?? true } }),
});
