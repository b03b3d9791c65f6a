/** hover (SPEC §4.1): textDocument/hover, markup normalized to plain text. */

import type { Hover } from "vscode-languageserver-protocol";
import { z } from "zod";
import { normalizeHover } from "../../normalize/hover.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { positionShape, rangeShape, textDocumentPosition, withFile } from "./common.ts";
import { COMMON_ERRORS, POSITION_CONVENTION } from "./location-tool.ts";

const input = z.object(positionShape).strict();
const output = z.object({ text: z.string().nullable(), range: z.object(rangeShape).nullable() });

export const hoverTool = defineTool({
  name: "hover",
  title: "Hover",
  description:
    "Type, signature and documentation of the symbol at the position, as plain text (markdown " +
    "code fences removed, parts separated by a blank line), with the range it applies to. " +
    `Returns {text, range}; both null when the server has nothing. ${POSITION_CONVENTION} ` +
    `Errors: ${COMMON_ERRORS}.`,
  input,
  output,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) =>
    withFile(ctx, args, "semantics", async (call) => {
      call.session.requireCapability("hoverProvider", "textDocument/hover");
      const raw = await call.session.request<Hover | null>(
        "textDocument/hover",
        textDocumentPosition(ctx, call, args),
        call.wait,
      );
      const h = normalizeHover(raw, call.doc.uri, call.norm);
      return { result: { text: h.text, range: h.range }, count: h.text === null ? 0 : 1 };
    }),
});
