/** definition (SPEC §4.1): textDocument/definition. */
import { locationTool } from "./location-tool.ts";

export const definitionTool = locationTool({
  name: "definition",
  title: "Go to definition",
  method: "textDocument/definition",
  provider: "definitionProvider",
  what: "Where the symbol at a position is defined.",
});
