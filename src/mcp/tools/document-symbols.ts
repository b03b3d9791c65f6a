/**
 * document_symbols (SPEC §4.1): textDocument/documentSymbol; hierarchical or
 * flat answers become one normalized tree, kinds by name.
 */

import { z } from "zod";
import { page } from "../../normalize/paging.ts";
import { countSymbols } from "../../normalize/symbols.ts";
import {
  checkPaging,
  fileShape,
  pagedResult,
  pagedShape,
  pagingShape,
  rangeOut,
} from "../conventions.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { sessionMarks, withFile } from "./common.ts";
import { documentSymbolTree } from "./position.ts";

const input = z.object({ ...fileShape, ...pagingShape }).strict();

// Children have the same shape; published as plain objects rather than a recursive
// `$ref`, which clients that accept only a plain object schema cannot follow.
const symbolNode = z.object({
  name: z.string(),
  kind: z.string(),
  detail: z.string().optional(),
  range: rangeOut,
  selection: rangeOut,
  children: z.array(z.object({})),
});
const output = z.object({ file: z.string(), symbols: z.array(symbolNode), ...pagedShape });

export const documentSymbolsTool = defineTool({
  name: "document_symbols",
  title: "Document symbols",
  description:
    "The file's symbol tree (children are like their parents); `limit` pages over top-level symbols.",
  input,
  output,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) => {
    const paging = checkPaging(ctx, args);
    return withFile(ctx, args, "semantics", async (call) => {
      const tree = await documentSymbolTree(call);
      const p = page(tree, paging);
      return {
        result: {
          file: call.rel,
          ...pagedResult("symbols", p),
          ...sessionMarks(call.session, call.rel),
        },
        count: countSymbols(p.items),
        pages: { key: "symbols", items: tree, offset: paging.offset },
      };
    });
  },
});
