/**
 * Links in hover markdown (SPEC §4.3), pure: an inline link's target, a reference link's
 * label, a reference definition line, an autolink, a URI written in text. Each look-ahead
 * stops at a bracket or a bound, so a line of them stays linear (SPEC §8).
 */

/** The longest link label CommonMark accepts; a longer bracket is text. */
const MAX_LABEL = 999;
/** How far a link destination, title or autolink is looked for. */
const MAX_TARGET = 4096;
const isSpace = (c: string | undefined): boolean => c === " " || c === "\t";

/** How a file URI in the text is named (workspace-relative, or the file's name). */
export type FileUriText = (uri: string) => string;

function normalLabel(label: string): string {
  return label.trim().split(/\s+/).join(" ").toLowerCase();
}

/** `[label]: destination` (up to three spaces before): the label, else null. */
export function definitionLabel(line: string): string | null {
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

/** Past the link whose text closes at `close`, or -1 when the brackets are text. */
export function linkEnd(
  line: string,
  close: number,
  openAt: number,
  labels: ReadonlySet<string>,
): number {
  const next = line[close + 1];
  if (next === "(") return inlineTargetEnd(line, close + 1);
  if (labels.size === 0 || close - openAt > MAX_LABEL + 1) return -1;
  const text = line.slice(openAt + 1, close);
  if (next === "[") {
    const ref = labelAt(line, close + 1);
    if (ref === null) return -1;
    const label = ref.label.length > 0 ? ref.label : text;
    return labels.has(normalLabel(label)) ? ref.end : -1;
  }
  return labels.has(normalLabel(text)) ? close + 1 : -1;
}

/** Where a URI written in text ends: white space, a quote or a closing bracket, not after a final `.,;:!?`. */
export function uriEnd(line: string, i: number): number {
  let j = i;
  while (j < line.length && !/[\s"'`<>)\]]/.test(line[j] as string)) j++;
  while (j > i && /[.,;:!?]/.test(line[j - 1] as string)) j--;
  return j;
}

/** `<scheme:…>` at `i`: the address as text (a file URI named as results do), and the end. */
export function autolinkAt(
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
