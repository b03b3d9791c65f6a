/**
 * What the bridge keeps of one diagnostic a server sent (SPEC §6, §8.2): a copy of the
 * fields LSP defines, each within DIAGNOSTIC_CAPS, holding nothing else of its message;
 * none without a range. Its weight estimates the memory the copy holds.
 */
import type { Diagnostic, DiagnosticRelatedInformation } from "vscode-languageserver-protocol";
import { isLspRange } from "../normalize/range-converter.ts";
import { keptText } from "./kept-text.ts";

export const DIAGNOSTIC_CAPS = {
  /** characters of a message (and of a MarkupContent message's value) */
  message: 16_384,
  /** characters of a related note's message */
  relatedMessage: 4096,
  /** characters of `source`, a string `code`, a MarkupContent's `kind` */
  label: 256,
  /** characters of a URI (a related note's, `codeDescription.href`): longer, it is left out */
  uri: 4096,
  related: 32,
  tags: 8,
  /** bytes of `data` as JSON */
  data: 16_384,
  dataDepth: 32,
} as const;

/** What the weight counts per object, slot and string (docs/PERFORMANCE.md, "Hostile input"). */
const OBJECT_BYTES = 80;
const SLOT_BYTES = 8;
const STRING_BYTES = 32;
/** a diagnostic's own objects: itself, its range and two positions */
const DIAGNOSTIC_BYTES = 4 * OBJECT_BYTES + 8 * SLOT_BYTES;
/** a note's objects: itself, its location, range and two positions */
const RELATED_BYTES = 5 * OBJECT_BYTES + 7 * SLOT_BYTES;

export interface KeptDiagnostic {
  diagnostic: Diagnostic;
  /** an estimate of the bytes the copy holds */
  weight: number;
  /** `data` was left out: over its caps */
  dataDropped: boolean;
  /** a text was cut or a URI left out */
  cut: boolean;
}

/** A coordinate kept as a number; anything else the normalizer reads as 0 anyway. */
const coordinate = (n: unknown): number => (typeof n === "number" ? n : 0);
const position = (p: { line?: unknown; character?: unknown }) => ({
  line: coordinate(p.line),
  character: coordinate(p.character),
});

/** A range of the server's, copied. */
function rangeOf(r: unknown): Diagnostic["range"] | undefined {
  if (!isLspRange(r)) return undefined;
  return { start: position(r.start), end: position(r.end) };
}

/** The size of `value` as JSON and its weight, or undefined once past the caps. */
export function measureData(value: unknown): { json: number; weight: number } | undefined {
  let json = 0;
  let weight = 0;
  const walk = (v: unknown, depth: number): boolean => {
    if (json > DIAGNOSTIC_CAPS.data || depth > DIAGNOSTIC_CAPS.dataDepth) return false;
    if (typeof v === "string") {
      json += v.length + 2;
      weight += STRING_BYTES + 2 * v.length;
      return json <= DIAGNOSTIC_CAPS.data;
    }
    if (v === null || typeof v !== "object") {
      json += typeof v === "number" ? String(v).length : 5;
      weight += SLOT_BYTES;
      return json <= DIAGNOSTIC_CAPS.data;
    }
    json += 2;
    weight += OBJECT_BYTES;
    if (Array.isArray(v)) {
      for (const item of v) {
        json += 1;
        weight += SLOT_BYTES;
        if (!walk(item, depth + 1)) return false;
      }
      return true;
    }
    for (const [key, item] of Object.entries(v)) {
      json += key.length + 4;
      weight += SLOT_BYTES + key.length;
      if (item !== undefined && !walk(item, depth + 1)) return false;
    }
    return true;
  };
  return walk(value, 0) ? { json, weight } : undefined;
}

/** The copy of `raw` to keep, or undefined: no diagnostic (not an object, no range). */
export function keptDiagnostic(raw: unknown): KeptDiagnostic | undefined {
  if (raw === null || typeof raw !== "object") return undefined;
  const d = raw as Record<string, unknown>;
  const range = rangeOf(d.range);
  if (range === undefined) return undefined;
  const caps = DIAGNOSTIC_CAPS;
  let weight = DIAGNOSTIC_BYTES;
  let cut = false;
  const text = (s: string, max: number): string => {
    weight += STRING_BYTES + 2 * Math.min(s.length, max + 1);
    if (s.length <= max) return s;
    cut = true;
    return keptText(s, max);
  };
  const out: Record<string, unknown> = { range };
  if (typeof d.severity === "number") out.severity = d.severity;
  if (typeof d.code === "number") out.code = d.code;
  else if (typeof d.code === "string") out.code = text(d.code, caps.label);
  const href = (d.codeDescription as { href?: unknown } | null | undefined)?.href;
  if (typeof href === "string") {
    if (href.length <= caps.uri) out.codeDescription = { href: text(href, caps.uri) };
    else cut = true;
  }
  if (typeof d.source === "string") out.source = text(d.source, caps.label);
  out.message = messageOf(d.message, text);
  if (Array.isArray(d.tags))
    out.tags = d.tags.filter((t) => typeof t === "number").slice(0, caps.tags);
  if (Array.isArray(d.relatedInformation)) {
    const related: DiagnosticRelatedInformation[] = [];
    for (const r of d.relatedInformation.slice(0, caps.related)) {
      const loc = (r as { location?: { uri?: unknown; range?: unknown } } | null)?.location;
      const at = rangeOf(loc?.range);
      if (typeof loc?.uri !== "string" || at === undefined) continue;
      if (loc.uri.length > caps.uri) {
        cut = true;
        continue;
      }
      weight += RELATED_BYTES;
      const message = (r as { message?: unknown }).message;
      related.push({
        location: { uri: text(loc.uri, caps.uri), range: at },
        message: typeof message === "string" ? text(message, caps.relatedMessage) : "",
      });
    }
    cut ||= d.relatedInformation.length > caps.related;
    out.relatedInformation = related;
  }
  let dataDropped = false;
  if (d.data !== undefined) {
    const size = measureData(d.data);
    if (size === undefined) dataDropped = true;
    else {
      out.data = d.data;
      weight += size.weight;
    }
  }
  return { diagnostic: out as unknown as Diagnostic, weight, dataDropped, cut };
}

/** A message, plain or MarkupContent (LSP 3.18), its text cut; anything else is "". */
function messageOf(message: unknown, text: (s: string, max: number) => string): unknown {
  if (typeof message === "string") return text(message, DIAGNOSTIC_CAPS.message);
  const m = message as { kind?: unknown; value?: unknown } | null;
  if (typeof m?.value !== "string") return "";
  const kind = typeof m.kind === "string" ? text(m.kind, DIAGNOSTIC_CAPS.label) : "plaintext";
  return { kind, value: text(m.value, DIAGNOSTIC_CAPS.message) };
}
