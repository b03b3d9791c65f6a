/**
 * inlay_hints items (SPEC §4.3): a `textDocument/inlayHint` answer as `{line, column, kind?,
 * text}` at client positions, in canonical order (position, then text). The label is a
 * string or the concatenation of its parts' values; kind 1 is `type`, 2 `parameter`, any
 * other none. Servers are untrusted (SPEC §8): an answer that is no list is no hints, and
 * a hint without a position or a label is dropped. Padding, tooltips and
 * commands are left out: an agent reads the text, not a rendering.
 */
import type { LspPosition } from "../text/positions.ts";
import { compareStrings } from "./order.ts";
import type { NormalizeContext } from "./types.ts";

export interface InlayHintOut {
  line: number;
  column: number;
  kind?: "type" | "parameter";
  text: string;
}

const KINDS: Readonly<Record<number, InlayHintOut["kind"]>> = { 1: "type", 2: "parameter" };

/** The label's text: a string, or the `value`s of its parts; undefined if malformed. */
export function labelText(label: unknown): string | undefined {
  if (typeof label === "string") return label;
  if (!Array.isArray(label)) return undefined;
  const parts: string[] = [];
  for (const part of label) {
    const value = (part as { value?: unknown } | null)?.value;
    if (typeof value !== "string") return undefined;
    parts.push(value);
  }
  return parts.join("");
}

export function compareHints(a: InlayHintOut, b: InlayHintOut): number {
  return (
    a.line - b.line ||
    a.column - b.column ||
    compareStrings(a.text, b.text) ||
    compareStrings(a.kind ?? "", b.kind ?? "")
  );
}

function isPosition(p: unknown): p is LspPosition {
  if (typeof p !== "object" || p === null) return false;
  const { line, character } = p as Record<string, unknown>;
  return [line, character].every((n) => Number.isSafeInteger(n) && (n as number) >= 0);
}

/** A hint answer's well-formed items at client positions, sorted. */
export function normalizeInlayHints(
  raw: unknown,
  uri: string,
  ctx: NormalizeContext,
): InlayHintOut[] {
  if (!Array.isArray(raw)) return [];
  const hints: InlayHintOut[] = [];
  for (const item of raw) {
    const h = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
    const text = labelText(h.label);
    if (text === undefined || !isPosition(h.position)) continue;
    const at = ctx.toRange(uri, { start: h.position, end: h.position });
    const kind = typeof h.kind === "number" ? KINDS[h.kind] : undefined;
    hints.push({ line: at.line, column: at.column, ...(kind ? { kind } : {}), text });
  }
  return hints.sort(compareHints);
}
