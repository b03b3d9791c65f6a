/** hover (SPEC §4.1): textDocument/hover, markup normalized to plain text. */

import { HoverRequest } from "vscode-languageserver-protocol";
import { z } from "zod";
import { normalizeHover } from "../../normalize/hover.ts";
import { positionShape, rangeOut } from "../conventions.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { sessionMarks, withFile } from "./common.ts";
import { textDocumentPosition } from "./position.ts";

const input = z.object(positionShape).strict();
const output = z.object({ text: z.string().nullable(), range: rangeOut.nullable() });

export const hoverTool = defineTool({
  name: "hover",
  title: "Hover",
  description: "Type, signature and docs at a position as plain text, with the range it covers.",
  input,
  output,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) =>
    withFile(ctx, args, "semantics", async (call) => {
      call.session.requireCapability("hoverProvider", "textDocument/hover");
      const raw = await call.session.request(
        HoverRequest.type,
        await textDocumentPosition(ctx, call, args),
        call.wait,
      );
      const h = normalizeHover(raw, call.doc.uri, call.norm);
      return {
        result: { text: h.text, range: h.range, ...sessionMarks(call.session, call.rel) },
        count: h.text === null ? 0 : 1,
      };
    }),
});
