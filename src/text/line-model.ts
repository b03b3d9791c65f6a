/**
 * Where lines break (SPEC §5, "The line model"): LSP 3.17 says CR, LF and CRLF, and the
 * client's lines are always counted so; a server may count otherwise (clangd, gopls and
 * rust-analyzer break at LF only, tsserver at U+2028 and U+2029 as well). A model names
 * the terminators a server breaks at; positions move between two models through text
 * offsets (line-index.ts). A text with no character the two models treat differently has
 * the same lines in both, which `differs` finds in one regular-expression pass.
 */

import { LINE_TERMINATORS } from "../config/schema.ts";

export type Terminator = (typeof LINE_TERMINATORS)[number];

/** The single characters besides CR and LF that may end a line, by name. */
const OTHER_CODES = {
  u2028: 0x2028,
  u2029: 0x2029,
  nel: 0x85,
  vt: 0x0b,
  ff: 0x0c,
  fs: 0x1c,
  gs: 0x1d,
  rs: 0x1e,
} as const;

export interface LineModel {
  /** the terminators, in LINE_TERMINATORS order */
  readonly names: readonly Terminator[];
  /** `names` joined: equal keys, equal models */
  readonly key: string;
  /** a CR not followed by LF ends a line */
  readonly cr: boolean;
  /** CR LF is one terminator (else the CR is its own, with `cr`, or part of the line) */
  readonly crlf: boolean;
  /** the code units besides LF and CR that end a line */
  readonly others: ReadonlySet<number>;
  /** finds a character where this model's line breaks differ from LSP's; null: nowhere */
  readonly differs: RegExp | null;
  /** the source of a regular expression matching one terminator */
  readonly breaks: string;
  /** the class (a `[…]` body) of the characters that end a line alone */
  readonly chars: string;
  /** the source of one terminator for counting (count.ts): a CR LF never split in two */
  readonly unit: string;
}

function hex(code: number): string {
  return `\\u${code.toString(16).padStart(4, "0")}`;
}

/** The model of these terminator names (LF is always one: every server breaks there). */
export function lineModel(names: readonly Terminator[]): LineModel {
  const set = new Set<Terminator>([...names, "lf"]);
  const ordered = LINE_TERMINATORS.filter((t) => set.has(t));
  const others = new Set<number>();
  for (const [name, code] of Object.entries(OTHER_CODES)) {
    if (set.has(name as Terminator)) others.add(code);
  }
  const cr = set.has("cr");
  const crlf = set.has("crlf");
  const parts: string[] = [];
  // LSP breaks at a lone CR once and at CR LF once
  if (!cr) parts.push("\\r(?!\\n)");
  else if (!crlf) parts.push("\\r\\n");
  if (others.size > 0) parts.push(`[${[...others].map(hex).join("")}]`);
  const singles = [...(cr ? ["\\r"] : []), "\\n", ...[...others].map(hex)];
  const breaks = `${crlf ? "\\r\\n|" : ""}[${singles.join("")}]`;
  // a CR LF that is one terminator where a lone CR is another: the CR never ends a line
  // before its LF, so a count cannot split the pair
  const rest = singles.filter((s) => s !== "\\r").join("");
  const unit = cr && crlf ? `\\r\\n|\\r(?!\\n)|[${rest}]` : `[${singles.join("")}]`;
  return Object.freeze({
    names: Object.freeze(ordered),
    key: ordered.join(","),
    cr,
    crlf,
    others,
    differs: parts.length === 0 ? null : new RegExp(parts.join("|")),
    breaks,
    chars: singles.join(""),
    unit,
  });
}

/** LSP's model (CR, LF, CRLF): the client's, and a server's unless its config says otherwise. */
export const LSP_LINES: LineModel = lineModel(["cr", "lf", "crlf"]);

/** Do `text`'s lines start at the same offsets in `model` as in LSP's? */
export function sameLineStarts(text: string, model: LineModel): boolean {
  return model.differs === null || !model.differs.test(text);
}

/**
 * Where the line that ends before `next` (the following line's start) has its content end
 * in `model`: before its terminator — two code units for a CR LF the model counts as one.
 */
export function contentEnd(text: string, next: number, model: LineModel): number {
  if (model.crlf && text.charCodeAt(next - 1) === 0x0a && text.charCodeAt(next - 2) === 0x0d) {
    return next - 2;
  }
  return next - 1;
}
