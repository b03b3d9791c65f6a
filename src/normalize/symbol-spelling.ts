/**
 * Names as each language spells them (SPEC §4.2), pure: what a document symbol's name says
 * of where it stands, and how a query reads as a path. gopls names a method
 * `(*List[T]).Push` at the top level (receiver `List`, method `Push`); rust-analyzer nests
 * methods under `impl Parse for Parser`, a block that answers to its type `Parser` and, as
 * an impl, to its own spelling only; clangd names an out-of-line definition `S::m` or
 * `a::b::S::m`, its qualifiers the containers the member was declared in. Every function
 * here runs in time linear in its input (names and queries are untrusted text).
 */

const IDENTIFIER = /^[\p{L}\p{N}_]+$/u;
const WORD = /[\p{L}\p{N}_]/u;
const SPACE = /\s/;

/** gopls's method name `(*T).m`, `(T).m`, `(*T[P]).m`: the receiver type and the method. */
export function goMethod(name: string): { receiver: string; method: string } | undefined {
  if (!name.startsWith("(")) return undefined;
  const close = name.indexOf(").");
  if (close < 0) return undefined;
  let receiver = name.slice(1, close);
  if (receiver.startsWith("*")) receiver = receiver.slice(1);
  const bracket = receiver.indexOf("[");
  if (bracket >= 0) receiver = receiver.slice(0, bracket);
  const method = name.slice(close + 2);
  if (!IDENTIFIER.test(receiver) || !IDENTIFIER.test(method)) return undefined;
  return { receiver, method };
}

/** Past the `<…>` that starts at `i` (nested), or the end of the text. */
function skipAngles(text: string, i: number): number {
  let depth = 0;
  let j = i;
  for (; j < text.length; j++) {
    if (text[j] === "<") depth++;
    else if (text[j] === ">" && --depth === 0) return j + 1;
  }
  return j;
}

/** Whether `name` spells a Rust impl block: `impl X`, `impl<T> X<T>`, `impl T for X`. */
export function isImpl(name: string): boolean {
  return name.startsWith("impl") && (name[4] === " " || name[4] === "<");
}

/**
 * rust-analyzer's impl block name → the type it implements for: `impl<T> Wrapper<T>`,
 * `impl ParserI<'s, P>`, `impl Display for crate::Rect` → `Wrapper`, `ParserI`, `Rect`.
 */
export function implSelfType(name: string): string | undefined {
  if (!isImpl(name)) return undefined;
  let rest = name.slice(name[4] === "<" ? skipAngles(name, 4) : 4);
  // `Trait<…> for Type`: the type after ` for ` outside angle brackets
  let depth = 0;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    if (c === "<") depth++;
    else if (c === ">") depth--;
    else if (depth === 0 && rest.startsWith(" for ", i)) {
      rest = rest.slice(i + 5);
      break;
    }
  }
  rest = rest.trim().replace(/^(?:&(?:mut\s+)?|dyn\s+|\*(?:const|mut)\s+)/, "");
  let end = 0;
  while (end < rest.length && /[\p{L}\p{N}_:]/u.test(rest[end] as string)) end++;
  const path = rest.slice(0, end);
  const type = path.slice(path.lastIndexOf(":") + 1);
  return IDENTIFIER.test(type) ? type : undefined;
}

/** White space dropped but for one space between two word characters. */
function tight(text: string): string {
  const out: string[] = [];
  let last = "";
  let spaced = false;
  for (const c of text) {
    if (SPACE.test(c)) {
      spaced = true;
      continue;
    }
    if (spaced && WORD.test(c) && WORD.test(last)) out.push(" ");
    out.push(c);
    last = c;
    spaced = false;
  }
  return out.join("");
}

/** The text without its `<…>` groups. */
function withoutAngles(text: string): string {
  const out: string[] = [];
  let depth = 0;
  for (const c of text) {
    if (c === "<") depth++;
    else if (c === ">" && depth > 0) depth--;
    else if (depth === 0) out.push(c);
  }
  return out.join("");
}

/**
 * An impl as compared: its own generic parameters dropped (`impl<T> W<T>` is `impl W<T>`),
 * and with `bare` every generic argument too.
 */
function implKey(name: string, bare = false): string {
  const rest = name.slice(name[4] === "<" ? skipAngles(name, 4) : 4);
  return `impl ${tight(bare ? withoutAngles(rest) : rest)}`;
}

/**
 * Whether a query's segment spelled as an impl (`impl Parser`, `impl<T> W<T>`, `impl Parse
 * for Parser`) names the impl block `name`: as written (white space and the impl's own
 * parameters aside), or — when the segment gives no generic arguments — whatever they are.
 */
export function implNamed(segment: string, name: string): boolean {
  if (!isImpl(segment) || !isImpl(name)) return false;
  const asked = implKey(segment);
  return asked === implKey(name) || (!asked.includes("<") && asked === implKey(name, true));
}

/**
 * Where `text` splits into path segments: at `::`, and at `.` unless `colonsOnly`, outside
 * `<…>`, `[…]` and `(…)`. Each split is `[index, separator length]`.
 */
function separators(text: string, colonsOnly: boolean): [number, number][] {
  const out: [number, number][] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "<" || c === "[" || c === "(") depth++;
    else if (c === ">" || c === "]" || c === ")") depth = Math.max(0, depth - 1);
    else if (depth > 0) continue;
    else if (c === ":" && text[i + 1] === ":") out.push([i++, 2]);
    else if (c === "." && !colonsOnly) out.push([i, 1]);
  }
  return out;
}

function splitAt(text: string, at: readonly [number, number][]): string[] {
  const parts: string[] = [];
  let from = 0;
  for (const [i, n] of at) {
    parts.push(text.slice(from, i));
    from = i + n;
  }
  parts.push(text.slice(from));
  return parts;
}

/**
 * A query read as a path, outermost first (one segment: a plain name): `Box.size`,
 * `a::b::S::m`, gopls's `(*List).Push`, a Rust `impl Parse for Parser::parse` (the impl as
 * one segment, up to its last separator), `List[T].Len`. Undefined when a segment is empty.
 */
export function querySegments(query: string): string[] | undefined {
  const go = goMethod(query);
  if (go !== undefined) return [go.receiver, go.method];
  const at = separators(query, false);
  const last = at.at(-1);
  const parts =
    isImpl(query) && last !== undefined
      ? [query.slice(0, last[0]), query.slice(last[0] + last[1])]
      : splitAt(query, at);
  return parts.every((p) => p.length > 0) ? parts : undefined;
}

/**
 * A segment without the generic arguments it ends with (`List[T]`, `W<T>` → `List`, `W`),
 * or as it is.
 */
export function bare(segment: string): string {
  const close = segment.at(-1);
  const open = close === ">" ? "<" : close === "]" ? "[" : undefined;
  if (open === undefined) return segment;
  const head = segment.slice(0, segment.indexOf(open));
  return IDENTIFIER.test(head) ? head : segment;
}

/** What a symbol's name says: the name as its text writes it, the containers it names. */
export interface Spelled {
  word: string;
  qualifiers: string[];
  /** named with `::` qualifiers: a definition outside the containers it was declared in */
  outOfLine: boolean;
}

/** `(*List[T]).Push` → `Push` in `List`; `a::b::S::m` → `m` in `a`, `b`, `S`; else the name. */
export function spelled(name: string): Spelled {
  const go = goMethod(name);
  if (go !== undefined) return { word: go.method, qualifiers: [go.receiver], outOfLine: false };
  if (isImpl(name) || !name.includes("::")) return { word: name, qualifiers: [], outOfLine: false };
  const parts = splitAt(name, separators(name, true));
  if (parts[0] === "") parts.shift();
  const word = parts.pop() ?? "";
  if (word === "" || parts.some((p) => p === "")) {
    return { word: name, qualifiers: [], outOfLine: false };
  }
  return { word, qualifiers: parts, outOfLine: parts.length > 0 };
}

/**
 * Whether a query's segment names a container (an ancestor's name, or a qualifier of a
 * symbol's own name): the name, without its generic arguments, an impl block by its type
 * or by its own spelling.
 */
export function namesContainer(segment: string, name: string): boolean {
  if (name === segment || name === bare(segment)) return true;
  if (!isImpl(name)) return false;
  return isImpl(segment) ? implNamed(segment, name) : implSelfType(name) === bare(segment);
}

const PACKAGE_CLAUSE = /^[ \t]*package[ \t]+([\p{L}\p{N}_.]+)[ \t]*;?[ \t]*\r?$/mu;

/**
 * The names a file's symbols may be qualified with in a query, though no symbol holds
 * them: its `package` clause (Go's `lib` of `lib.Add`; Java's, Kotlin's).
 */
export function fileQualifiers(text: string): string[] {
  const pkg = PACKAGE_CLAUSE.exec(text)?.[1];
  return pkg === undefined ? [] : [pkg];
}
