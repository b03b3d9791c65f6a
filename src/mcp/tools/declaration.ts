/** declaration (SPEC §4.1): textDocument/declaration. */
import { DeclarationRequest } from "vscode-languageserver-protocol";
import { locationTool } from "./location-tool.ts";

export const declarationTool = locationTool({
  name: "declaration",
  title: "Go to declaration",
  request: DeclarationRequest.type,
  provider: "declarationProvider",
  what: "Where the symbol at a position is declared (a C prototype, say).",
});
