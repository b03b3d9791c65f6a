/** type_definition (SPEC §4.1): textDocument/typeDefinition. */
import { TypeDefinitionRequest } from "vscode-languageserver-protocol";
import { locationTool } from "./location-tool.ts";

export const typeDefinitionTool = locationTool({
  name: "type_definition",
  title: "Go to type definition",
  request: TypeDefinitionRequest.type,
  provider: "typeDefinitionProvider",
  what: "Where the type of the symbol at a position is defined.",
});
