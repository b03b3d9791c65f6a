/**
 * Hover markdown → plain text (SPEC §4.3): the text a reader of the rendered hover sees.
 * Fenced code is kept as it is (its fence lines dropped). Elsewhere headers lose their
 * `#`s, backslash escapes and character references (`&nbsp;`, `&lt;`, `&#39;`) become
 * the characters they stand for, links and images become their text (targets and
 * reference definitions dropped), and file URIs are named as results name files: a file
 * outside the workspace keeps only its name, so the text never depends on the machine.
 * Code spans are kept with their backticks. Server text is untrusted: one pass per line,
 * every look-ahead stops at a bracket or a bound, no backtracking pattern (SPEC §8).
 */

import {
  autolinkAt,
  definitionLabel,
  type FileUriText,
  linkEnd,
  uriEnd,
} from "./markdown-links.ts";

export type { FileUriText } from "./markdown-links.ts";

/** What may follow a fence: an info string such as `python` or `c++` (one class: linear). */
const INFO_STRING = /^[\w+#.-]*$/;
/** Open brackets tracked per line; beyond that a `[` is text. */
const MAX_OPENERS = 64;

const ENTITIES: Readonly<Record<string, string>> = {
  nbsp: " ",
  lt: "<",
  gt: ">",
  amp: "&",
  quot: '"',
  apos: "'",
  ensp: " ",
  emsp: " ",
  thinsp: " ",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  copy: "©",
  reg: "®",
};

interface Fence {
  char: string;
  count: number;
  info: boolean;
}

function fenceOf(line: string): Fence | null {
  const t = line.trim();
  const char = t[0];
  if (char !== "`" && char !== "~") return null;
  let n = 1;
  while (t[n] === char) n += 1;
  const rest = t.slice(n).trimStart();
  if (n < 3 || !INFO_STRING.test(rest)) return null;
  return { char, count: n, info: rest.length > 0 };
}

/**
 * A ``` or ~~~ fence line, optionally with an info string. Hover text comes from workspace
 * files through the server: no backtracking regular expression runs over it (SPEC §8; a
 * fence line of spaces and one other character backtracked quadratically).
 */
export function isFenceLine(line: string): boolean {
  return fenceOf(line) !== null;
}

/** ASCII punctuation: what a backslash escapes. */
function isPunct(c: string | undefined): boolean {
  if (c === undefined || c.length !== 1) return false;
  const n = c.charCodeAt(0);
  return (
    (n >= 33 && n <= 47) || (n >= 58 && n <= 64) || (n >= 91 && n <= 96) || (n >= 123 && n <= 126)
  );
}

/** The characters inline resolution may start at (`\\ & < [ ] ! \``, and `f`/`F` of file:). */
const START_CHARS = "\\&<[]!`fF";
/** Any of them, for a search from a position (a `g` copy per line, see inlineText). */
const MAY_START = new RegExp(`[${START_CHARS.replace(/[\\\]]/g, "\\$&")}]`);

const isSpace = (c: string | undefined): boolean => c === " " || c === "\t";

/** An ATX header's text without its `#` marks, or null when the line is not one. */
function headerText(line: string): string | null {
  let i = 0;
  while (i < 3 && line[i] === " ") i++;
  let n = 0;
  while (line[i + n] === "#") n++;
  if (n < 1 || n > 6) return null;
  const after = line[i + n];
  if (after !== undefined && !isSpace(after)) return null;
  let text = line.slice(i + n).trim();
  // a closing sequence: `#`s at the end, alone or after a space
  let k = text.length;
  while (k > 0 && text[k - 1] === "#") k--;
  if (k === 0 || isSpace(text[k - 1])) text = text.slice(0, k).trimEnd();
  return text;
}

/** Code spans of a line, start → end (exclusive): backtick runs paired with the next run of the same length. */
function codeSpans(line: string): ReadonlyMap<number, number> {
  const runs: { start: number; len: number; escaped: boolean }[] = [];
  // from backtick to backtick by a native search (see inlineText)
  let from = 0;
  for (let i = line.indexOf("`"); i >= 0; i = line.indexOf("`", from)) {
    // the backslashes right before the run, not counting into the previous run
    let b = i;
    while (b > from && line[b - 1] === "\\") b--;
    let j = i;
    while (line[j] === "`") j++;
    runs.push({ start: i, len: j - i, escaped: (i - b) % 2 === 1 });
    from = j;
  }
  const byLength = new Map<number, number[]>();
  runs.forEach((r, i) => {
    const list = byLength.get(r.len);
    if (list) list.push(i);
    else byLength.set(r.len, [i]);
  });
  const cursor = new Map<number, number>();
  const spans = new Map<number, number>();
  for (let i = 0; i < runs.length; ) {
    const run = runs[i] as (typeof runs)[number];
    if (run.escaped) {
      i++;
      continue;
    }
    const list = byLength.get(run.len) as number[];
    let p = cursor.get(run.len) ?? 0;
    while (p < list.length && (list[p] as number) <= i) p++;
    cursor.set(run.len, p);
    const closer = list[p];
    if (closer === undefined) {
      i++;
      continue;
    }
    const end = runs[closer] as (typeof runs)[number];
    spans.set(run.start, end.start + end.len);
    i = closer + 1;
  }
  return spans;
}

/** A character reference at `i` (`&name;`, `&#123;`, `&#x1F;`): its text and end, or null. */
function entityAt(line: string, i: number): { text: string; end: number } | null {
  let j = i + 1;
  if (line[j] === "#") {
    const hex = line[j + 1] === "x" || line[j + 1] === "X";
    const digit = hex ? /[0-9a-fA-F]/ : /[0-9]/;
    j += hex ? 2 : 1;
    const start = j;
    while (j - start < 7 && digit.test(line[j] ?? "")) j++;
    if (j === start || line[j] !== ";") return null;
    const cp = Number.parseInt(line.slice(start, j), hex ? 16 : 10);
    const ok = cp > 0 && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff);
    return { text: ok ? String.fromCodePoint(cp) : "\uFFFD", end: j + 1 };
  }
  const start = j;
  while (j - start < 32 && /[A-Za-z0-9]/.test(line[j] ?? "")) j++;
  const text = line[j] === ";" ? ENTITIES[line.slice(start, j)] : undefined;
  return text === undefined ? null : { text, end: j + 1 };
}

/** A line without these characters has nothing to resolve. */
const INLINE_SYNTAX = /[\\&<[`]|file:/i;

interface Opener {
  /** index of its `[` in the output */
  out: number;
  /** index of its `[` in the line */
  at: number;
  /** index of a `!` before it in the output (an image) */
  bang?: number;
}

/** One line outside code: escapes, references, links, URIs. */
function inlineText(line: string, labels: ReadonlySet<string>, fileUri: FileUriText): string {
  if (!INLINE_SYNTAX.test(line)) return line;
  const spans = line.includes("`") ? codeSpans(line) : undefined;
  // text goes into `run`; a `[` or `!` a link may drop gets a slot of its own in `out`
  const out: string[] = [];
  let run = "";
  const slot = (text: string): number => {
    out.push(run, text);
    run = "";
    return out.length - 1;
  };
  const openers: Opener[] = [];
  // searched from each position by the regular expression engine: per-call code runs in
  // the lower JIT tiers (docs/TOOLCHAIN.md), where a native search beats a character loop
  const mayStart = new RegExp(MAY_START.source, "g");
  let lastBang = -1;
  let i = 0;
  while (i < line.length) {
    // plain text up to the next character something may start at, in one piece
    if (!START_CHARS.includes(line[i] as string)) {
      mayStart.lastIndex = i;
      const j = mayStart.test(line) ? mayStart.lastIndex - 1 : line.length;
      run += line.slice(i, j);
      i = j;
      continue;
    }
    const c = line[i] as string;
    const spanEnd = spans?.get(i);
    if (spanEnd !== undefined) {
      run += line.slice(i, spanEnd);
      i = spanEnd;
    } else if (c === "\\" && isPunct(line[i + 1])) {
      run += line[i + 1] as string;
      i += 2;
    } else if (c === "&" || c === "<") {
      const e = c === "&" ? entityAt(line, i) : autolinkAt(line, i, fileUri);
      run += e?.text ?? c;
      i = e?.end ?? i + 1;
    } else if ((c === "f" || c === "F") && /^file:\/\//i.test(line.slice(i, i + 7))) {
      const end = uriEnd(line, i);
      run += fileUri(line.slice(i, end));
      i = end;
    } else if (c === "!" && line[i + 1] === "[") {
      lastBang = slot("!");
      i++;
    } else if (c === "[" && openers.length < MAX_OPENERS) {
      const bang = lastBang >= 0 && lastBang === out.length - 1 && run === "";
      openers.push({ out: slot("["), at: i, ...(bang ? { bang: lastBang } : {}) });
      i++;
    } else if (c === "]" && openers.length > 0) {
      const opener = openers.pop() as Opener;
      const end = linkEnd(line, i, opener.at, labels);
      if (end < 0) {
        run += "]";
        i++;
        continue;
      }
      // a link: its text stays, its brackets and target go; links do not nest
      out[opener.out] = "";
      if (opener.bang !== undefined) out[opener.bang] = "";
      openers.length = 0;
      i = end;
    } else {
      run += c;
      i++;
    }
  }
  out.push(run);
  return out.join("");
}

/** What a line is: text, fenced code, a fence or a reference definition (both dropped). */
const TEXT = 0;
const CODE = 1;
const DROPPED = 2;

/** Markdown → plain text, line endings LF, trailing white space trimmed off every line. */
export function markdownToText(markdown: string, fileUri: FileUriText): string {
  const lines = markdown.replaceAll("\r\n", "\n").replaceAll("\r", "\n").split("\n");
  // what each line is (fences pair up), and the reference labels, used before or after
  const kind = new Uint8Array(lines.length);
  const labels = new Set<string>();
  let open: Fence | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.length === 0) continue;
    const fence = line.length >= 3 ? fenceOf(line) : null;
    if (open === null && fence !== null) {
      open = fence;
      kind[i] = DROPPED;
    } else if (open !== null) {
      const closes = fence?.char === open.char && fence.count >= open.count && !fence.info;
      if (closes) open = null;
      kind[i] = closes ? DROPPED : CODE;
    } else {
      const label = line.includes("]:") ? definitionLabel(line) : null;
      if (label !== null) labels.add(label);
      kind[i] = label !== null ? DROPPED : TEXT;
    }
  }
  // lines are rewritten in place; dropped ones leave only when there are any
  let dropped = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.length === 0) continue;
    if (kind[i] === DROPPED) dropped++;
    else if (kind[i] === CODE) lines[i] = line.trimEnd();
    else lines[i] = inlineText(headerText(line) ?? line, labels, fileUri).trimEnd();
  }
  return (dropped > 0 ? lines.filter((_, i) => kind[i] !== DROPPED) : lines).join("\n");
}
