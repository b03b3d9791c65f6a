/**
 * The form of a diagnostic's message that `diagnostics {since}` matches by (SPEC §6.1):
 * what two renderings of one problem share. tsserver prints union members, and members of
 * a type built from a union of keys, in the order its checker created their types
 * (docs/LANGUAGE-SERVERS.md#typescript-language-server-type-order). The message is read
 * as nested groups — `( )`, `[ ]`, `{ }`, `<…>` after a name, quotes:
 * - the members of a `{ … }` (split at `;` and `,`) are a set: sorted, empty ones dropped;
 * - inside any group the operands of `|` are a set; an operand reaches to the next `|`,
 *   `,`, `;`, `:`, `?`, `=`, arrow or the group's edge;
 * - outside any group, the items of a list (split at `,` and `;`, between colons) are a set;
 * - every quote (' " ` ‘’ “”) is written alike, white space only between word characters.
 * Order stays order everywhere else. One pass; groups nest MAX_DEPTH deep at most and a
 * long group's form stands in its parent as a digest: O(n log n) on hostile text (SPEC §8).
 */
import { hash } from "node:crypto";

/** A group's form longer than this stands in its parent as a digest (bounds the copying). */
const FORM_INLINE = 64;
/** Deeper openers are plain text: no server nests types this deep. */
const MAX_DEPTH = 128;

const WORD = 0;
const PLAIN = 1;
const SPACE = 2;
const SPECIAL = 3;
/** What each ASCII character is to the form. */
const ASCII_KIND = (() => {
  const kinds = new Uint8Array(128).fill(PLAIN);
  for (let c = 0; c <= 32; c++) kinds[c] = SPACE;
  for (const [from, to] of ["09", "AZ", "az", "__", "$$"]) {
    for (let c = code(from); c <= code(to); c++) kinds[c] = WORD; // `$`: names like `$ZodType`
  }
  for (const ch of "()[]{}<>'\"`|,;:?=-") kinds[code(ch)] = SPECIAL;
  return kinds;
})();

function code(ch: string | undefined): number {
  return (ch as string).charCodeAt(0);
}

function kindOf(c: number): number {
  if (c < 128) return ASCII_KIND[c] as number;
  if (c >= 0x2018 && c <= 0x201d) return c === 0x201a || c === 0x201b ? PLAIN : SPECIAL;
  const space =
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff;
  return space ? SPACE : WORD;
}

/** Groups by what closes them: the opener, and how the form writes them (quotes alike). */
const GROUPS = [
  { open: "(", close: ")", written: "()" },
  { open: "[", close: "]", written: "[]" },
  { open: "{", close: "}", written: "{}" },
  { open: "<", close: ">", written: "<>" },
  { open: "‘", close: "’", written: "''" },
  { open: "“", close: "”", written: "''" },
  { open: "'", close: "'", written: "''" },
  { open: '"', close: '"', written: "''" },
  { open: "`", close: "`", written: "''" },
] as const;
const MEMBERS = 2;
const ANGLE = 3;
const FIRST_STRAIGHT_QUOTE = 6;
/** The group each ASCII character opens, and the one it closes: an index in GROUPS, or -1. */
const ASCII_OPENS = asciiTable("open");
const ASCII_CLOSES = asciiTable("close");

function asciiTable(side: "open" | "close"): Int8Array {
  const table = new Int8Array(128).fill(-1);
  GROUPS.forEach((g, i) => {
    if (code(g[side]) < 128) table[code(g[side])] = i;
  });
  return table;
}

/** The index in GROUPS of the group `c` opens (or closes), or -1. */
function groupOf(side: "open" | "close", c: number): number {
  if (c < 128) return (side === "open" ? ASCII_OPENS : ASCII_CLOSES)[c] as number;
  return GROUPS.findIndex((g) => code(g[side]) === c);
}

/** `list` in code unit order, in place: a few by insertion (the runtime's sort costs more). */
function sorted(list: string[]): string[] {
  if (list.length > 16) return list.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (let i = 1; i < list.length; i++) {
    const item = list[i] as string;
    let j = i - 1;
    for (; j >= 0 && (list[j] as string) > item; j--) list[j + 1] = list[j] as string;
    list[j + 1] = item;
  }
  return list;
}

class Group {
  /** the finished items (none yet: null) */
  items: string[] | null = null;
  /** the current item's finished segments, with the boundaries between them */
  segments = "";
  /** the current segment's finished operands of `|` (none yet: null) */
  operands: string[] | null = null;
  operand = "";
  /** the message itself: its lists up to the last colon, written out */
  clauses = "";
  constructor(
    /** index in GROUPS; -1 for the message itself */
    readonly kind: number,
    readonly parent: Group | null,
  ) {}

  endSegment(boundary: string): void {
    if (this.operands === null) {
      this.segments += this.operand + boundary;
    } else {
      this.operands.push(this.operand);
      // the message's own top level keeps its order: `|` there is prose or a gutter
      const ops = this.parent === null ? this.operands : sorted(this.operands);
      this.segments += ops.join("|") + boundary;
      this.operands = null;
    }
    this.operand = "";
  }

  endItem(): void {
    this.endSegment("");
    if (this.items === null) this.items = [];
    this.items.push(this.segments);
    this.segments = "";
  }

  /**
   * The items written out: sorted members for `{ }` and a list in the message itself, else
   * in order.
   */
  body(): string {
    if (this.items === null && this.operands === null) {
      return this.clauses + this.segments + this.operand;
    }
    this.endItem();
    const items = this.items as string[];
    const set = this.kind === MEMBERS ? items.filter((s) => s !== "") : items;
    return this.clauses + (set !== items || this.parent === null ? sorted(set) : items).join(",");
  }

  /** The message itself at a colon: the list before it is done. */
  endClause(): void {
    this.clauses = `${this.body()}:`;
    this.items = null;
    this.segments = "";
    this.operands = null;
    this.operand = "";
  }

  /** The group's form in its parent; `closed` when its closer was met. */
  form(closed: boolean): string {
    const written = (GROUPS[this.kind] as (typeof GROUPS)[number]).written;
    const form = `${written[0]}${this.body()}${closed ? written[1] : ""}`;
    return form.length > FORM_INLINE ? `#${hash("sha256", form, "hex").slice(0, 20)}` : form;
  }
}

const MAY_HOLD_SETS = /[{|,;]/;

/** Quotes alike and white space between word characters only: the form where nothing is a set. */
function flatForm(message: string): string {
  return message
    .replace(/[`"‘’“”]/g, "'")
    .replace(/\s+/g, " ")
    .replace(/ (?![\w$\u0080-\uffff])|(?<![\w$\u0080-\uffff]) /g, "");
}

/** The form of `message` for matching: equal for renderings of one problem (see above). */
export function messageForm(message: string): string {
  // without these nothing is a set; each survives every rendering difference matched
  if (!MAY_HOLD_SETS.test(message)) return flatForm(message);
  let g = new Group(-1, null);
  const openCount = new Int32Array(GROUPS.length);
  let depth = 0;
  let lastWord = false;
  let space = false;
  const n = message.length;
  let i = 0;
  while (i < n) {
    let j = i;
    while (j < n && kindOf(message.charCodeAt(j)) < SPACE) j += 1;
    if (j > i) {
      if (space && lastWord && kindOf(message.charCodeAt(i)) === WORD) g.operand += " ";
      g.operand += message.slice(i, j);
      lastWord = kindOf(message.charCodeAt(j - 1)) === WORD;
      space = false;
      i = j;
      if (i === n) break;
    }
    const c = message.charCodeAt(i);
    i += 1;
    if (kindOf(c) === SPACE) {
      space = true;
      continue;
    }
    const afterWord = lastWord && !space;
    lastWord = false;
    space = false;
    const closes = groupOf("close", c);
    const opens = groupOf("open", c);
    if (closes >= 0 && (openCount[closes] as number) > 0) {
      // a closer (or a quote) of an open group: groups left open inside it end here
      for (;;) {
        const child = g;
        openCount[child.kind] = (openCount[child.kind] as number) - 1;
        depth -= 1;
        g = child.parent as Group;
        g.operand += child.form(child.kind === closes);
        if (child.kind === closes) break;
      }
    } else if (
      opens >= 0 &&
      depth < MAX_DEPTH &&
      // `<` only right after a name (`Array<`, not `a < b`); a straight quote only where
      // it is no apostrophe (`doesn't`)
      (opens === ANGLE ? afterWord : opens < FIRST_STRAIGHT_QUOTE || !afterWord)
    ) {
      g = new Group(opens, g);
      openCount[opens] = (openCount[opens] as number) + 1;
      depth += 1;
    } else if (c === 0x7c) {
      // |
      if (g.operands === null) g.operands = [];
      g.operands.push(g.operand);
      g.operand = "";
    } else if (c === 0x2c || c === 0x3b) {
      // , ;
      g.endItem();
    } else if ((c === 0x3d || c === 0x2d) && message.charCodeAt(i) === 0x3e) {
      // => ->
      g.endSegment(`${String.fromCharCode(c)}>`);
      i += 1;
    } else if (c === 0x3a && g.parent === null) {
      g.endClause();
    } else if (c === 0x3a || c === 0x3f || c === 0x3d) {
      // : ? =
      g.endSegment(String.fromCharCode(c));
    } else {
      g.operand += String.fromCharCode(c);
    }
  }
  for (let parent = g.parent; parent !== null; parent = g.parent) {
    parent.operand += g.form(false);
    g = parent;
  }
  return g.body();
}
