/**
 * document_symbols (SPEC §4.1): textDocument/documentSymbol; hierarchical or
 * flat answers become one normalized tree, kinds by name.
 */

import type { DocumentSymbol, SymbolInformation } from "vscode-languageserver-protocol";
import { z } from "zod";
import { page } from "../../normalize/paging.ts";
import { countSymbols, normalizeDocumentSymbols } from "../../normalize/symbols.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { checkLimit, fileShape, pagedShape, pagingShape, rangeShape, withFile } from "./common.ts";
import { COMMON_ERRORS } from "./location-tool.ts";

const input = z.object({ ...fileShape, ...pagingShape }).strict();

interface SymbolTree {
  name: string;
  kind: string;
  detail?: string;
  range: z.infer<typeof range>;
  selection: z.infer<typeof range>;
  children: SymbolTree[];
}
const range = z.object(rangeShape);
const symbolNode: z.ZodType<SymbolTree> = z.lazy(() =>
  z.object({
    name: z.string(),
    kind: z.string(),
    detail: z.string().optional(),
    range,
    selection: range,
    children: z.array(symbolNode),
  }),
);
const output = z.object({ file: z.string(), symbols: z.array(symbolNode), ...pagedShape });

export const documentSymbolsTool = defineTool({
  name: "document_symbols",
  title: "Document symbols",
  description:
    "The file's symbols as one tree: {file, symbols: [{name, kind, detail?, range, selection, " +
    "children}], total, next_offset?}. Kinds are lower-case names (function, struct, class, …). " +
    "Paging (limit/offset) applies to the top-level symbols; `total` counts top-level symbols. " +
    `Ranges are 1-based lines and columns in the bridge's column unit. Errors: ${COMMON_ERRORS}.`,
  input,
  output,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) => {
    const limit = checkLimit(ctx, args.limit);
    return withFile(ctx, args, "semantics", async (call) => {
      call.session.requireCapability("documentSymbolProvider", "textDocument/documentSymbol");
      const raw = await call.session.request<DocumentSymbol[] | SymbolInformation[] | null>(
        "textDocument/documentSymbol",
        { textDocument: { uri: call.doc.uri } },
        call.wait,
      );
      const tree = normalizeDocumentSymbols(raw, call.doc.uri, call.norm);
      const p = page(tree, limit, args.offset);
      const result: Record<string, unknown> = { file: call.rel, symbols: p.items, total: p.total };
      if (p.next_offset !== undefined) result.next_offset = p.next_offset;
      return { result, count: countSymbols(p.items) };
    });
  },
});
