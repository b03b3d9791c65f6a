/**
 * Push and pull diagnostics of one document → SPEC §4.3 items with per-diagnostic
 * provenance (SPEC §6). Messages are kept byte for byte (the parity gate compares them).
 */

import type { Diagnostic } from "vscode-languageserver-protocol";
import type { TimeSlices } from "../time-slice.ts";
import { compareDiagnostic, compareDiagnosticFields, compareLoc } from "./order.ts";
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

/** One diagnostic of `channel`; undefined for malformed server output. */
function toOut(
  uri: string,
  d: Diagnostic,
  channel: readonly Channel[],
  ctx: NormalizeContext,
): DiagnosticOut | undefined {
  if (typeof d !== "object" || d === null || !isLspRange(d.range)) return undefined;
  const code =
    typeof d.code === "number" || typeof d.code === "string" ? String(d.code) : undefined;
  // no `source` is assumed: some servers publish none (fortls)
  const source = typeof d.source === "string" ? d.source : undefined;
  const related = relatedOf(d.relatedInformation, ctx);
  // the location's fresh object, its keys in the order of types.ts
  const out = ctx.toLoc(uri, d.range) as DiagnosticOut;
  out.severity = severityName(d.severity);
  if (code !== undefined) out.code = code;
  if (source !== undefined) out.source = source;
  out.message = messageText(d.message);
  if (related.length > 0) out.related = related;
  out.channels = channel;
  return out;
}

/**
 * Channel lists, shared by every item: results are only read and serialized. Readonly by
 * type, not frozen: the runtime serializes a frozen array several times slower.
 */
const PULL: readonly Channel[] = ["pull"];
const PUSH: readonly Channel[] = ["push"];
const BOTH: readonly Channel[] = ["pull", "push"];

/**
 * Merge one document's pushed and pulled diagnostics. Identical ones (same range, severity,
 * code, source, message after normalization) become one item with channels
 * ["pull","push"]; exact duplicates within one channel are kept once. Sorted first, so
 * equal ones lie side by side (a pull before its push): no key is made per diagnostic.
 * In time slices: a server may publish 100,000 for one file (SPEC §8.2).
 */
export async function normalizeDiagnostics(
  uri: string,
  push: Diagnostic[] | undefined,
  pull: Diagnostic[] | undefined,
  ctx: NormalizeContext,
  slices: TimeSlices,
): Promise<DiagnosticOut[]> {
  const all: DiagnosticOut[] = [];
  const add = async (list: Diagnostic[] | undefined, channel: readonly Channel[]) => {
    if (!Array.isArray(list)) return;
    await slices.each(list.length, (i) => {
      const out = toOut(uri, list[i] as Diagnostic, channel, ctx);
      if (out !== undefined) all.push(out);
    });
  };
  await add(pull, PULL);
  await add(push, PUSH);
  const result: DiagnosticOut[] = [];
  for (const item of await slices.sort(all, compareDiagnostic)) {
    const last = result[result.length - 1];
    if (last === undefined || compareDiagnosticFields(last, item) !== 0) result.push(item);
    else if (last.channels !== item.channels) last.channels = BOTH;
  }
  return result;
}
