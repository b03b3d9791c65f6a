/**
 * symbol_source (SPEC §4.1): the text of one document symbol — named by `symbol` (a name
 * or dotted path, as every position tool reads it, SPEC §4.2) or the innermost one holding
 * a position — over the range textDocument/documentSymbol gives it, cut from the text the
 * server was given, with `context` whole lines around.
 */
import { z } from "zod";
import type { SymbolMatch } from "../../normalize/symbol-path.ts";
import {
  fromKeyword,
  MAX_SOURCE_CONTEXT,
  sourceText,
  symbolAt,
} from "../../normalize/symbol-source.ts";
import { locFields, positionShape, rangeOut } from "../conventions.ts";
import { type CallContext, defineTool, measureAnswer, READ_ONLY } from "../tool.ts";
import { type FileCall, sessionMarks, withFile } from "./common.ts";
import { documentSymbolTree, resolvePosition, symbolsOnLine, uniqueSymbol } from "./position.ts";
import { noSymbolAt, outsideBounds } from "./tool-errors.ts";

const input = z.object({ ...positionShape, context: z.number().int().optional() }).strict();

const output = z.object({
  ...locFields,
  name: z.string(),
  kind: z.string(),
  container: z.string().optional(),
  range: rangeOut,
  text: z.string(),
  text_range: rangeOut.optional(),
});

const TOO_LARGE_HINT =
  "ask for less `context`, or for a nested symbol (`Type.method`); max_result_bytes bounds every result";

function checkContext(context: number | undefined): number {
  if (context === undefined) return 0;
  if (context < 0 || context > MAX_SOURCE_CONTEXT) {
    const hint = `pass 0..${MAX_SOURCE_CONTEXT} lines of context, or leave it out for none`;
    throw outsideBounds("context", 0, MAX_SOURCE_CONTEXT, context, hint);
  }
  return context;
}

type Args = z.infer<typeof input>;

/**
 * The symbol the arguments name: by `symbol` alone; by `symbol` with `line`, the one it
 * names whose name is on that line; else the innermost one at the position.
 */
async function symbolOf(ctx: CallContext, call: FileCall, args: Args): Promise<SymbolMatch> {
  const unit = ctx.bridge.config.bridge.column_unit;
  const { line, symbol } = args;
  const named = symbol !== undefined && args.column === undefined && args.occurrence === undefined;
  if (named && line === undefined) return uniqueSymbol(call, symbol, unit);
  if (named && line !== undefined) {
    const [only, more] = await symbolsOnLine(call, symbol, line);
    if (only !== undefined && more === undefined) return only;
  }
  const at = await resolvePosition(ctx, call, args);
  const found = symbolAt(await documentSymbolTree(call), at.line, at.column);
  if (found === undefined) throw noSymbolAt(call.rel, at.line, at.column);
  return found;
}

export const symbolSourceTool = defineTool({
  name: "symbol_source",
  title: "Symbol source",
  description:
    "A symbol's source text (by `symbol` name or path, or at a position), `context` lines around.",
  input,
  output,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) => {
    const context = checkContext(args.context);
    const bridge = ctx.bridge.config.bridge;
    return withFile(ctx, args, "semantics", async (call) => {
      const m = await symbolOf(ctx, call, args);
      const { node } = m;
      // the document the range was converted in: the server's text of the file
      const doc = call.session.documents.byPath(call.doc.abs) ?? call.doc;
      const range = fromKeyword(doc.index, node.range, bridge.column_unit);
      const source = sourceText(doc.index, range, context, bridge.column_unit);
      const result = {
        file: call.rel,
        name: node.name,
        kind: node.kind,
        ...(m.ancestors.length > 0 ? { container: m.ancestors.join(".") } : {}),
        range,
        ...source,
        ...sessionMarks(call.session, call.rel),
      };
      const answer = { result, count: 1 };
      return { ...answer, json: measureAnswer(answer, bridge, TOO_LARGE_HINT) };
    });
  },
});
