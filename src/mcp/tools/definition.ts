/** definition (SPEC §4.1): textDocument/definition. */
import { DefinitionRequest } from "vscode-languageserver-protocol";
import { locationTool } from "./location-tool.ts";

export const definitionTool = locationTool({
  name: "definition",
  title: "Go to definition",
  request: DefinitionRequest.type,
  provider: "definitionProvider",
  what: "Where the symbol at a position is defined.",
});
