/** implementation (SPEC §4.1): textDocument/implementation. */
import { ImplementationRequest } from "vscode-languageserver-protocol";
import { locationTool } from "./location-tool.ts";

export const implementationTool = locationTool({
  name: "implementation",
  title: "Find implementations",
  request: ImplementationRequest.type,
  uses: true,
  provider: "implementationProvider",
  what: "Implementations of the interface, trait or abstract member at the position.",
});
