/**
 * inlay_hints (SPEC §4.1): textDocument/inlayHint over the file or `start_line`..`end_line`;
 * the hints the server would show (inferred types, parameter names) at client positions,
 * in canonical order. Over max_result_bytes, ResultTooLarge: ask for fewer lines.
 */
import { InlayHintRequest } from "vscode-languageserver-protocol";
import { z } from "zod";
import { normalizeInlayHints } from "../../normalize/inlay-hints.ts";
import { fileShape } from "../conventions.ts";
import { defineTool, measureAnswer, READ_ONLY } from "../tool.ts";
import { sessionMarks, withFile } from "./common.ts";
import { lineRange, lineRangeShape } from "./line-range.ts";

// the lines asked are its pages: a file's hints are read by the lines they annotate
const input = z.object({ ...fileShape, ...lineRangeShape }).strict();

// each hint is {line, column, kind?: "type" | "parameter", text} (SPEC §4.3)
const output = z.object({ hints: z.array(z.object({})), total: z.number().int() });

export const inlayHintsTool = defineTool({
  name: "inlay_hints",
  title: "Inlay hints",
  description: "Inline type and parameter-name hints in `file` (or `start_line`..`end_line`).",
  input,
  output,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) => {
    const unit = ctx.bridge.config.bridge.column_unit;
    return withFile(ctx, args, "semantics", async (call) => {
      const { session, doc } = call;
      session.requireCapability("inlayHintProvider", "textDocument/inlayHint");
      const range = lineRange(call, unit, args);
      const raw = await session.request(
        InlayHintRequest.type,
        { textDocument: { uri: doc.uri }, range },
        call.wait,
      );
      // a server may answer for the whole file whatever the range (gopls): the lines asked
      // are the answer's pages, so what lies outside them is left out
      const first = args.start_line ?? 1;
      const last = args.end_line ?? Number.POSITIVE_INFINITY;
      const hints = (
        await call.norm.convert(() => normalizeInlayHints(raw, doc.uri, call.norm))
      ).filter((h) => h.line >= first && h.line <= last);
      const answer = {
        result: { hints, total: hints.length, ...sessionMarks(session, call.rel) },
        count: hints.length,
      };
      const json = measureAnswer(
        answer,
        ctx.bridge.config.bridge,
        "ask for fewer lines (start_line..end_line): the lines are inlay_hints' pages",
      );
      return { ...answer, json };
    });
  },
});
