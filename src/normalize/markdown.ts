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

/** What may follow a fence: an info string such as `python` or `c++` (one class: linear). */
const INFO_STRING = /^[\w+#.-]*$/;
/** The longest link label CommonMark accepts; a longer bracket is text. */
const MAX_LABEL = 999;
/** How far a link destination, title or autolink is looked for. */
const MAX_TARGET = 4096;
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

const isPunct = (c: string | undefined): boolean =>
  c !== undefined && c.length === 1 && /[!-/:-@[-`{-~]/.test(c);

const isSpace = (c: string | undefined): boolean => c === " " || c === "\t";

function normalLabel(label: string): string {
  return label.trim().split(/\s+/).join(" ").toLowerCase();
}

/** `[label]: destination` (up to three spaces before): the label, else null. */
function definitionLabel(line: string): string | null {
  let i = 0;
  while (i < 3 && line[i] === " ") i++;
  if (line[i] !== "[") return null;
  const start = i + 1;
  let j = start;
  while (j < line.length && j - start <= MAX_LABEL && line[j] !== "]" && line[j] !== "[") {
    j += line[j] === "\\" ? 2 : 1;
  }
  if (line[j] !== "]" || line[j + 1] !== ":" || j === start) return null;
  if (line.slice(j + 2).trim().length === 0) return null;
  const label = normalLabel(line.slice(start, j));
  return label.length > 0 ? label : null;
}

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
  let backslashes = 0;
  for (let i = 0; i < line.length; ) {
    if (line[i] === "`") {
      let j = i;
      while (line[j] === "`") j++;
      runs.push({ start: i, len: j - i, escaped: backslashes % 2 === 1 });
      backslashes = 0;
      i = j;
    } else {
      backslashes = line[i] === "\\" ? backslashes + 1 : 0;
      i++;
    }
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

/** Past `( destination "title" )` starting at `p` (the `(`), or -1 when it is not one. */
function inlineTargetEnd(line: string, p: number): number {
  let j = p + 1;
  while (isSpace(line[j])) j++;
  if (line[j] === "<") {
    const start = j;
    j++;
    while (j < line.length && j - start < MAX_TARGET && line[j] !== ">" && line[j] !== "<") {
      j += line[j] === "\\" ? 2 : 1;
    }
    if (line[j] !== ">") return -1;
    j++;
  } else {
    const start = j;
    let depth = 0;
    while (j < line.length && j - start < MAX_TARGET) {
      const c = line[j] as string;
      if (c === "\\") {
        j += 2;
        continue;
      }
      if (c <= " " || c === "[" || c === "]" || c === "<" || c === "`") break;
      if (c === "(") depth++;
      else if (c === ")") {
        if (depth === 0) break;
        depth--;
      }
      j++;
    }
  }
  const beforeTitle = j;
  while (isSpace(line[j])) j++;
  const open = line[j];
  if (j > beforeTitle && (open === '"' || open === "'" || open === "(")) {
    const close = open === "(" ? ")" : open;
    const start = j;
    j++;
    while (j < line.length && j - start < MAX_TARGET && line[j] !== close) {
      if (line[j] === "[" || line[j] === "]") return -1;
      j += line[j] === "\\" ? 2 : 1;
    }
    if (line[j] !== close) return -1;
    j++;
    while (isSpace(line[j])) j++;
  }
  return line[j] === ")" ? j + 1 : -1;
}

/** `[label]` starting at `p`: its label and end, or null. */
function labelAt(line: string, p: number): { label: string; end: number } | null {
  let j = p + 1;
  while (j < line.length && j - p <= MAX_LABEL && line[j] !== "]" && line[j] !== "[") {
    j += line[j] === "\\" ? 2 : 1;
  }
  return line[j] === "]" ? { label: line.slice(p + 1, j), end: j + 1 } : null;
}

/** Where a URI written in text ends: white space, a quote or a closing bracket, not after a final `.,;:!?`. */
function uriEnd(line: string, i: number): number {
  let j = i;
  while (j < line.length && !/[\s"'`<>)\]]/.test(line[j] as string)) j++;
  while (j > i && /[.,;:!?]/.test(line[j - 1] as string)) j--;
  return j;
}

/** `<scheme:…>` at `i`: the address as text (a file URI named as results do), and the end. */
function autolinkAt(
  line: string,
  i: number,
  fileUri: FileUriText,
): { text: string; end: number } | null {
  let j = i + 1;
  while (j < line.length && j - i < MAX_TARGET && /[^\s<>]/.test(line[j] as string)) j++;
  if (line[j] !== ">") return null;
  const uri = line.slice(i + 1, j);
  if (!/^[A-Za-z][A-Za-z0-9+.-]{1,31}:/.test(uri)) return null;
  return { text: /^file:/i.test(uri) ? fileUri(uri) : uri, end: j + 1 };
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
  const out: string[] = [];
  const openers: Opener[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line[i] as string;
    const spanEnd = spans?.get(i);
    if (spanEnd !== undefined) {
      out.push(line.slice(i, spanEnd));
      i = spanEnd;
    } else if (c === "\\" && isPunct(line[i + 1])) {
      out.push(line[i + 1] as string);
      i += 2;
    } else if (c === "&" || c === "<") {
      const e = c === "&" ? entityAt(line, i) : autolinkAt(line, i, fileUri);
      out.push(e?.text ?? c);
      i = e?.end ?? i + 1;
    } else if ((c === "f" || c === "F") && /^file:\/\//i.test(line.slice(i, i + 7))) {
      const end = uriEnd(line, i);
      out.push(fileUri(line.slice(i, end)));
      i = end;
    } else if (c === "[" && openers.length < MAX_OPENERS) {
      const bang = line[i - 1] === "!" && line[i - 2] !== "\\" && out[out.length - 1] === "!";
      openers.push({ out: out.length, at: i, ...(bang ? { bang: out.length - 1 } : {}) });
      out.push("[");
      i++;
    } else if (c === "]" && openers.length > 0) {
      const opener = openers.pop() as Opener;
      const end = linkEnd(line, i, opener, labels);
      if (end < 0) {
        out.push("]");
        i++;
        continue;
      }
      // a link: its text stays, its brackets and target go; links do not nest
      out[opener.out] = "";
      if (opener.bang !== undefined) out[opener.bang] = "";
      openers.length = 0;
      i = end;
    } else {
      out.push(c);
      i++;
    }
  }
  return out.join("");
}

/** Past the link whose text closes at `close`, or -1 when the brackets are text. */
function linkEnd(line: string, close: number, opener: Opener, labels: ReadonlySet<string>) {
  const next = line[close + 1];
  if (next === "(") return inlineTargetEnd(line, close + 1);
  if (labels.size === 0 || close - opener.at > MAX_LABEL + 1) return -1;
  const text = line.slice(opener.at + 1, close);
  if (next === "[") {
    const ref = labelAt(line, close + 1);
    if (ref === null) return -1;
    const label = ref.label.length > 0 ? ref.label : text;
    return labels.has(normalLabel(label)) ? ref.end : -1;
  }
  return labels.has(normalLabel(text)) ? close + 1 : -1;
}

/** How a file URI in the text is named (workspace-relative, or the file's name). */
export type FileUriText = (uri: string) => string;

/** Markdown → plain text, line endings LF; lines keep their trailing white space. */
export function markdownToText(markdown: string, fileUri: FileUriText): string {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  // code lines first (fences pair up), then reference definitions (used before or after)
  const code: boolean[] = [];
  let open: Fence | null = null;
  for (const line of lines) {
    const fence = fenceOf(line);
    if (open === null) {
      open = fence; // an opening fence line is dropped, not code
      code.push(false);
    } else if (fence?.char === open.char && fence.count >= open.count && !fence.info) {
      open = null; // the closing one too
      code.push(false);
    } else {
      code.push(true);
    }
  }
  const labels = new Set<string>();
  const definition = lines.map((line, i) => {
    if (code[i]) return false;
    const label = definitionLabel(line);
    if (label !== null) labels.add(label);
    return label !== null;
  });
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (code[i] || line.length === 0) out.push(line);
    else if (definition[i] || isFenceLine(line)) return;
    else out.push(inlineText(headerText(line) ?? line, labels, fileUri));
  });
  return out.join("\n");
}
