/**
 * A server's text kept past its message, bounded (SPEC §8.2). A cut text is a copy: a slice
 * keeps its whole parent alive (docs/PERFORMANCE.md, "Hostile input").
 */

/** `text`, or a copy of its first `max` characters (never half a surrogate pair) and "…". */
export function keptText(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? max - 1 : max;
  // through JSON and back: a new string that owns its characters, lone surrogates kept
  const copy = JSON.parse(JSON.stringify(text.slice(0, end))) as string;
  return `${copy}…`;
}
