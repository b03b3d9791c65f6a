/**
 * Push and pull diagnostics of one document → SPEC §4.3 items with per-diagnostic
 * provenance (SPEC §6). Messages are kept byte for byte (the parity gate compares them).
 */

import type { Diagnostic } from "vscode-languageserver-protocol";
import { canonicalJson } from "./json.ts";
import { compareDiagnostic, compareLoc } from "./order.ts";
import { isLspRange } from "./range-converter.ts";
import type {
  Channel,
  DiagnosticOut,
  NormalizeContext,
  RelatedOut,
  SeverityName,
} from "./types.ts";

export type { DiagnosticOut } from "./types.ts";

const SEVERITY_NAMES: Record<number, SeverityName> = {
  1: "error",
  2: "warning",
  3: "information",
  4: "hint",
};

/**
 * LSP leaves a missing severity to the client; theodolite reports it as "error", the
 * conservative reading for a gate (and what editors commonly show).
 */
export function severityName(severity: unknown): SeverityName {
  return (typeof severity === "number" && SEVERITY_NAMES[severity]) || "error";
}

function messageText(message: unknown): string {
  if (typeof message === "string") return message;
  // 3.18 MarkupContent messages (only sent to clients that opt in): keep the raw value
  if (typeof message === "object" && message !== null) {
    const value = (message as { value?: unknown }).value;
    if (typeof value === "string") return value;
  }
  return "";
}

/** Notes kept per diagnostic at most: a server's list is untrusted (SPEC §8). */
export const MAX_RELATED = 32;

/** A diagnostic's relatedInformation as notes at client positions; malformed ones dropped. */
function relatedOf(info: unknown, ctx: NormalizeContext): RelatedOut[] {
  if (!Array.isArray(info)) return [];
  const out: RelatedOut[] = [];
  for (const r of info.slice(0, MAX_RELATED)) {
    const location = (r as { location?: { uri?: unknown; range?: unknown } } | null)?.location;
    if (typeof location?.uri !== "string" || !isLspRange(location.range)) continue;
    out.push({ ...ctx.toLoc(location.uri, location.range), message: messageText(r.message) });
  }
  return out.sort(compareLoc);
}

/** One diagnostic without its channels; undefined for malformed server output. */
function toOut(
  uri: string,
  d: Diagnostic,
  ctx: NormalizeContext,
): Omit<DiagnosticOut, "channels"> | undefined {
  if (typeof d !== "object" || d === null || !isLspRange(d.range)) return undefined;
  const code =
    typeof d.code === "number" || typeof d.code === "string" ? String(d.code) : undefined;
  // no `source` is assumed: some servers publish none (fortls)
  const source = typeof d.source === "string" ? d.source : undefined;
  const related = relatedOf(d.relatedInformation, ctx);
  return {
    ...ctx.toLoc(uri, d.range),
    severity: severityName(d.severity),
    ...(code !== undefined ? { code } : {}),
    ...(source !== undefined ? { source } : {}),
    message: messageText(d.message),
    ...(related.length > 0 ? { related } : {}),
  };
}

/**
 * Merge one document's pushed and pulled diagnostics. Identical ones (same range, severity,
 * code, source, message after normalization) become one item with channels
 * ["pull","push"]; exact duplicates within one channel are kept once.
 */
export function normalizeDiagnostics(
  uri: string,
  push: Diagnostic[] | undefined,
  pull: Diagnostic[] | undefined,
  ctx: NormalizeContext,
): DiagnosticOut[] {
  const merged = new Map<
    string,
    { out: Omit<DiagnosticOut, "channels">; channels: Set<Channel> }
  >();
  const add = (list: Diagnostic[] | undefined, channel: Channel) => {
    if (!Array.isArray(list)) return;
    for (const d of list) {
      const out = toOut(uri, d, ctx);
      if (out === undefined) continue;
      const key = canonicalJson(out);
      const entry = merged.get(key) ?? { out, channels: new Set<Channel>() };
      entry.channels.add(channel);
      merged.set(key, entry);
    }
  };
  add(pull, "pull");
  add(push, "push");
  const result: DiagnosticOut[] = [];
  for (const { out, channels } of merged.values()) {
    const ordered = (["pull", "push"] as const).filter((c) => channels.has(c));
    result.push({ ...out, channels: ordered } as DiagnosticOut);
  }
  return result.sort(compareDiagnostic);
}
