/**
 * signature_help results (SPEC §4.3): `{signatures: [{label, documentation?, parameters:
 * [{label, documentation?}]}], active_signature, active_parameter}`. A parameter's label
 * given as [start, end] offsets into the signature's label (UTF-16, as JavaScript strings
 * count) becomes that substring; documentation becomes plain text as hover's does. The
 * indexes stay LSP's, 0-based into the lists (they are no positions): the active
 * signature's own `activeParameter` wins over the answer's; one outside the lists, or
 * none where the server says none, is absent (no signatures: `{signatures: []}`).
 * Servers are untrusted: a signature without a
 * string label or with a malformed parameter is dropped; an answer that is no signature
 * help at all is reported by the caller.
 */
import { documentationText } from "./hover.ts";
import { isJsonObject } from "./json.ts";
import type { NormalizeContext } from "./types.ts";

export interface ParameterOut {
  label: string;
  documentation?: string;
}

export interface SignatureOut {
  label: string;
  documentation?: string;
  parameters: ParameterOut[];
}

export interface SignatureHelpOut {
  signatures: SignatureOut[];
  active_signature?: number;
  active_parameter?: number;
}

function isIndex(v: unknown, length: number): v is number {
  return Number.isInteger(v) && (v as number) >= 0 && (v as number) < length;
}

/** A parameter's label as text: a string, or [start, end] within the signature's label. */
function parameterLabel(label: unknown, signature: string): string | undefined {
  if (typeof label === "string") return label;
  if (!Array.isArray(label) || label.length !== 2) return undefined;
  const [start, end] = label as unknown[];
  if (!Number.isInteger(start) || !Number.isInteger(end)) return undefined;
  const [s, e] = [start as number, end as number];
  return s >= 0 && s <= e && e <= signature.length ? signature.slice(s, e) : undefined;
}

function withDoc<T extends { label: string }>(
  head: T,
  doc: unknown,
  ctx: NormalizeContext,
): T & { documentation?: string } {
  const documentation = documentationText(doc, ctx);
  return documentation === undefined ? head : { ...head, documentation };
}

/** One signature, keys in output order; undefined when malformed. */
function signatureOut(sig: unknown, ctx: NormalizeContext): SignatureOut | undefined {
  if (!isJsonObject(sig) || typeof sig.label !== "string") return undefined;
  const rawParams = sig.parameters ?? [];
  if (!Array.isArray(rawParams)) return undefined;
  const parameters: ParameterOut[] = [];
  for (const p of rawParams as unknown[]) {
    const label = isJsonObject(p) ? parameterLabel(p.label, sig.label) : undefined;
    if (label === undefined) return undefined;
    parameters.push(withDoc({ label }, (p as Record<string, unknown>).documentation, ctx));
  }
  const { documentation } = withDoc({ label: sig.label }, sig.documentation, ctx);
  return {
    label: sig.label,
    ...(documentation !== undefined ? { documentation } : {}),
    parameters,
  };
}

/** The active parameter of `sig` (its own, else the answer's), LSP's default 0 when absent. */
function activeParameter(
  raw: Record<string, unknown>,
  answer: Record<string, unknown>,
  sig: SignatureOut,
): number | null {
  const value = raw.activeParameter !== undefined ? raw.activeParameter : answer.activeParameter;
  const count = sig.parameters.length;
  if (value === undefined) return count > 0 ? 0 : null;
  return isIndex(value, count) ? value : null;
}

/**
 * A `textDocument/signatureHelp` answer; null → no signatures. Undefined when the answer is
 * no SignatureHelp (not an object, or `signatures` not a list).
 */
export function normalizeSignatureHelp(
  answer: unknown,
  ctx: NormalizeContext,
): SignatureHelpOut | undefined {
  if (answer === null || answer === undefined) return { signatures: [] };
  if (!isJsonObject(answer) || !Array.isArray(answer.signatures)) return undefined;
  const raws = answer.signatures as unknown[];
  // LSP: an active signature outside the list (or none) is the first
  const activeRaw = isIndex(answer.activeSignature, raws.length) ? answer.activeSignature : 0;
  const signatures: SignatureOut[] = [];
  let active: number | null = null;
  let parameter: number | null = null;
  raws.forEach((raw, i) => {
    const sig = signatureOut(raw, ctx);
    if (sig === undefined) return;
    if (i === activeRaw) {
      active = signatures.length;
      parameter = activeParameter(raw as Record<string, unknown>, answer, sig);
    }
    signatures.push(sig);
  });
  return {
    signatures,
    ...(active !== null ? { active_signature: active } : {}),
    ...(parameter !== null ? { active_parameter: parameter } : {}),
  };
}
