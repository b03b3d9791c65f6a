/**
 * LSP snippet text → the plain text it inserts (SPEC §4.3 `completion`): tab stops
 * (`$1`, `${1}`) become nothing, placeholders (`${1:name}`) their text, choices
 * (`${1|a,b|}`) their first option, variables their default (`${TM_FILENAME:x}` → `x`) or
 * nothing, and escapes (`\$`, `\}`, `\\`) the character. What does not parse as one of
 * these stays as written. Server text is untrusted: nesting is bounded, and so is the
 * work (an element that never closes is scanned to the end; past the budget, the rest is
 * taken as written), so the time stays linear in the text.
 */

/** Deeper nesting is kept as written: a placeholder inside a placeholder is already rare. */
const MAX_DEPTH = 16;
/** A tab stop's number or a variable's name is looked for in this many characters. */
const NAME_MAX = 64;
const DIGITS = /^[0-9]+/;
const VARIABLE = /^[_a-zA-Z][_a-zA-Z0-9]*/;

/** Characters scanned per character of the snippet, at most (and a constant more). */
const WORK_PER_CHAR = 8;

interface Budget {
  left: number;
}

interface Parsed {
  text: string;
  /** where parsing stopped (at `stop`, or the end) */
  end: number;
}

/** Text up to an unescaped `stop` character (none: the end), with the snippet elements resolved. */
function parseAny(
  s: string,
  from: number,
  stop: string | undefined,
  depth: number,
  work: Budget,
): Parsed {
  let out = "";
  let i = from;
  while (i < s.length) {
    work.left -= 1;
    const c = s[i] as string;
    if (c === stop) return { text: out, end: i };
    if (c === "\\" && i + 1 < s.length && "$}\\".includes(s[i + 1] as string)) {
      out += s[i + 1];
      i += 2;
      continue;
    }
    if (c === "$") {
      const element =
        depth < MAX_DEPTH && work.left > 0 ? parseElement(s, i, depth, work) : undefined;
      if (element !== undefined) {
        out += element.text;
        i = element.end;
        continue;
      }
    }
    out += c;
    i += 1;
  }
  return { text: out, end: i };
}

/** The element starting with the `$` at `at`, or undefined when none starts there. */
function parseElement(s: string, at: number, depth: number, work: Budget): Parsed | undefined {
  const rest = s.slice(at + 1, at + 1 + NAME_MAX);
  const bare = DIGITS.exec(rest)?.[0] ?? VARIABLE.exec(rest)?.[0];
  if (bare !== undefined) return { text: "", end: at + 1 + bare.length };
  if (s[at + 1] !== "{") return undefined;
  const start = at + 2;
  const head = s.slice(start, start + NAME_MAX);
  const name = DIGITS.exec(head)?.[0] ?? VARIABLE.exec(head)?.[0];
  if (name === undefined) return undefined;
  const after = start + name.length;
  const next = s[after];
  if (next === "}") return { text: "", end: after + 1 };
  if (next === ":") {
    const inner = parseAny(s, after + 1, "}", depth + 1, work);
    return inner.end < s.length ? { text: inner.text, end: inner.end + 1 } : undefined;
  }
  if (next === "|" && DIGITS.test(name)) return parseChoice(s, after + 1, work);
  if (next === "/" && !DIGITS.test(name)) return skipTransform(s, after + 1, work);
  return undefined;
}

/** `a,b|}` after `${1|`: the first option. */
function parseChoice(s: string, from: number, work: Budget): Parsed | undefined {
  let first: string | undefined;
  let option = "";
  for (let i = from; i < s.length; i++) {
    work.left -= 1;
    const c = s[i] as string;
    if (c === "\\" && i + 1 < s.length && ",|\\$}".includes(s[i + 1] as string)) {
      option += s[i + 1];
      i += 1;
    } else if (c === ",") {
      first ??= option;
      option = "";
    } else if (c === "|") {
      return s[i + 1] === "}" ? { text: first ?? option, end: i + 2 } : undefined;
    } else {
      option += c;
    }
  }
  return undefined;
}

/**
 * A variable's transform `regex/format/options}`: it inserts the variable's value, unknown
 * here. The format's own `${1:/upcase}` elements hold slashes and braces of their own.
 */
function skipTransform(s: string, from: number, work: Budget): Parsed | undefined {
  let slashes = 0;
  let depth = 0;
  for (let i = from; i < s.length; i++) {
    work.left -= 1;
    const c = s[i];
    if (c === "\\") i += 1;
    else if (c === "$" && s[i + 1] === "{") {
      depth += 1;
      i += 1;
    } else if (c === "}" && depth > 0) depth -= 1;
    else if (c === "/" && depth === 0) slashes += 1;
    else if (c === "}" && slashes >= 2) return { text: "", end: i + 1 };
  }
  return undefined;
}

/** The plain text a snippet inserts. */
export function snippetToText(snippet: string): string {
  const work = { left: WORK_PER_CHAR * snippet.length + 256 };
  return parseAny(snippet, 0, undefined, 0, work).text;
}
