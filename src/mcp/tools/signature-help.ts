/**
 * signature_help (SPEC §4.1): textDocument/signatureHelp at a position inside a call's
 * arguments, invoked (no trigger character, no retrigger): the signatures with their
 * parameters' texts, and which signature and parameter are active. No call there: no
 * signatures, not an error.
 */
import { SignatureHelpRequest, SignatureHelpTriggerKind } from "vscode-languageserver-protocol";
import { z } from "zod";
import { normalizeSignatureHelp } from "../../normalize/signature-help.ts";
import { malformedAnswerError } from "../../session/session-errors.ts";
import { positionShape } from "../conventions.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { sessionMarks, withFile } from "./common.ts";
import { textDocumentPosition } from "./position.ts";

const input = z.object(positionShape).strict();
const output = z.object({
  signatures: z.array(z.object({})),
  active_signature: z.number().int().optional(),
  active_parameter: z.number().int().optional(),
});

export const signatureHelpTool = defineTool({
  name: "signature_help",
  title: "Signature help",
  description: "Signatures of the call at a position.",
  input,
  output,
  annotations: READ_ONLY,
  toolClass: "read",
  handler: async (args, ctx) =>
    withFile(ctx, args, "semantics", async (call) => {
      const { session } = call;
      const { method } = SignatureHelpRequest.type;
      session.requireCapability("signatureHelpProvider", method);
      const context = { triggerKind: SignatureHelpTriggerKind.Invoked, isRetrigger: false };
      const raw: unknown = await session.request(
        SignatureHelpRequest.type,
        { ...(await textDocumentPosition(ctx, call, args)), context },
        call.wait,
      );
      const help = normalizeSignatureHelp(raw, call.norm);
      if (help === undefined) throw malformedAnswerError(session.server.name, method, "signatures");
      return {
        result: { ...help, ...sessionMarks(session, call.rel) },
        count: help.signatures.length,
      };
    }),
});
