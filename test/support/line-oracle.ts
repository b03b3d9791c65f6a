/**
 * An oracle of lines and positions under a line model (SPEC §5), written apart from
 * src/text so tests check the bridge against something it does not share: a model's
 * terminators as one regular expression (CR LF before CR), a position as the text before
 * it measured with the platform's own encoders. Used by the unit property tests and by the
 * fake server, which counts its lines this way.
 */

/** The terminator names of `line_terminators` (SPEC §3) and the text each stands for. */
export const TERMINATOR_TEXT: Record<string, string> = {
  crlf: "\r\n",
  cr: "\r",
  lf: "\n",
  u2028: "\u2028",
  u2029: "\u2029",
  nel: "\u0085",
  vt: "\u000b",
  ff: "\u000c",
  fs: "\u001c",
  gs: "\u001d",
  rs: "\u001e",
};

/** Each terminator's text, once: what random texts are made of. */
export const ALL_TERMINATORS = Object.values(TERMINATOR_TEXT);

export type Encoding = "utf-8" | "utf-16" | "utf-32";

export interface OracleLines {
  /** UTF-16 offset where each line starts */
  starts: number[];
  /** UTF-16 offset where each line's content ends (its terminator begins) */
  ends: number[];
}

function unicodeEscaped(s: string): string {
  return [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
}

/** The lines of `text` when exactly the terminators `names` end lines. */
export function oracleLines(text: string, names: readonly string[]): OracleLines {
  const alternatives = names
    .map((n) => TERMINATOR_TEXT[n] as string)
    .sort((a, b) => b.length - a.length)
    .map(unicodeEscaped);
  const re = new RegExp(alternatives.join("|"), "g");
  const starts = [0];
  const ends: number[] = [];
  for (const m of text.matchAll(re)) {
    ends.push(m.index);
    starts.push(m.index + m[0].length);
  }
  ends.push(text.length);
  return { starts, ends };
}

const encoder = new TextEncoder();

/** Columns `s` takes in an encoding. */
export function widthOf(s: string, enc: Encoding): number {
  if (enc === "utf-16") return s.length;
  if (enc === "utf-32") return [...s].length;
  return encoder.encode(s).length;
}

/** The line an offset lies on (an offset inside a terminator: the line it ends). */
export function lineAt(lines: OracleLines, offset: number): number {
  let line = 0;
  while (line + 1 < lines.starts.length && (lines.starts[line + 1] as number) <= offset) line++;
  return line;
}

/** The position of `offset` (a character boundary, not inside a terminator) in `lines`. */
export function oraclePosition(
  text: string,
  lines: OracleLines,
  offset: number,
  enc: Encoding,
): { line: number; character: number } {
  const line = lineAt(lines, offset);
  const at = Math.min(offset, lines.ends[line] as number);
  return { line, character: widthOf(text.slice(lines.starts[line], at), enc) };
}

/** The offset a position names in `lines`, or undefined when none (past its line, inside a character). */
export function oracleOffset(
  text: string,
  lines: OracleLines,
  pos: { line: number; character: number },
  enc: Encoding,
): number | undefined {
  const start = lines.starts[pos.line];
  if (start === undefined) return undefined;
  const end = lines.ends[pos.line] as number;
  let at = start;
  let n = 0;
  while (n < pos.character) {
    if (at >= end) return undefined;
    const cp = text.codePointAt(at) as number;
    const ch = String.fromCodePoint(cp);
    n += widthOf(ch, enc);
    at += ch.length;
  }
  return n === pos.character ? at : undefined;
}
