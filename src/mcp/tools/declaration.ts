/** declaration (SPEC §4.1): textDocument/declaration. */
import { locationTool } from "./location-tool.ts";

export const declarationTool = locationTool({
  name: "declaration",
  title: "Go to declaration",
  method: "textDocument/declaration",
  provider: "declarationProvider",
  what: "Where the symbol at a position is declared (a C prototype, say).",
});
