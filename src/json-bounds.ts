/**
 * What parsing a JSON text would build, bounded before it is parsed (SPEC §4.8, §8.2): the
 * runtime's JSON.parse turns a few bytes into far more memory — an empty object, a key seen
 * for the first time, a new order of keys (a new object shape) — so a byte limit alone
 * leaves a message worth gigabytes (docs/PERFORMANCE.md, "Hostile input"). One linear pass
 * over the bytes, fed in pieces as they arrive, strings skipped and keys hashed, counts:
 * - depth: nesting of arrays and objects;
 * - containers: arrays and objects;
 * - values: array elements and object members (and the text itself), from the commas and
 *   the containers that are not empty;
 * - shapes: distinct key sequences among an object's first SHAPE_KEYS keys (past them the
 *   runtime keeps the object as a dictionary), distinct keys past them, and every key
 *   longer than HASHED_KEY bytes.
 * It stops at the first bound passed. n bytes hold at most n containers, n + 1 values and
 * n / 3 keys (quotes and a `{` or `,` each), so n / 3 shapes: counts are taken only in a
 * text long enough to pass a bound (`scanned`); depth always, where it is bounded.
 */

export interface JsonBounds {
  /** deepest nesting; undefined: not bounded */
  depth?: number;
  containers: number;
  values: number;
  shapes: number;
}

export type JsonBound = "depth" | "containers" | "values" | "shapes";

/** The bound a text passes, and that bound's value. */
export interface JsonExcess {
  bound: JsonBound;
  limit: number;
}

/** The runtime turns an object with more keys than this into a dictionary. */
const SHAPE_KEYS = 64;
/** Bytes of a key hashed; a longer key counts as a shape of its own. */
const HASHED_KEY = 256;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
/** a level that is an array (an object's level counts its keys from 0) */
const ARRAY = -1;
/** the hash of an object with no key yet, and the seed of keys past SHAPE_KEYS */
const EMPTY_SHAPE = 0x811c9dc5;
const DICTIONARY_KEYS = 0x2545f491;
/** what the scan does at a byte: 0 nothing, then quote, open, close, comma */
const ACTION = Uint8Array.from({ length: 256 }, (_, c) =>
  c === QUOTE
    ? 1
    : c === 0x7b || c === 0x5b
      ? 2
      : c === 0x7d || c === 0x5d
        ? 3
        : c === COMMA
          ? 4
          : 0,
);
/** JSON's whitespace (1) */
const WHITESPACE = Uint8Array.from({ length: 256 }, (_, c) =>
  c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d ? 1 : 0,
);
/** shapes recently counted, by their low bits: a repeated shape skips the set */
const RECENT_SLOTS = 1024;

/** Whether a text of `length` bytes is scanned at all under `bounds`. */
export function scanned(bounds: JsonBounds, length: number): boolean {
  return bounds.depth !== undefined || length >= countedFrom(bounds);
}

/** The shortest text that could pass a count bound (each key takes three bytes, above). */
function countedFrom(bounds: JsonBounds): number {
  return Math.min(bounds.containers, bounds.values, 3 * bounds.shapes);
}

/** `stack` with twice the room, its contents kept. */
function grown<T extends Int32Array | Float64Array>(stack: T): T {
  const bigger = new (stack.constructor as new (n: number) => T)(stack.length * 2);
  bigger.set(stack);
  return bigger;
}

/**
 * One JSON text, fed in pieces (`feed`) as they arrive; `excess` once a bound is passed.
 * The state between pieces: the open levels, whether a string is open (a key being
 * hashed, a backslash pending), the last byte outside strings.
 */
export class JsonScan {
  excess: JsonExcess | undefined;
  private readonly counting: boolean;
  private readonly maxDepth: number;
  private depth = 0;
  /** per open level: ARRAY, or for an object the count of its keys so far */
  private keys = new Int32Array(16);
  /** per open object: the hash of its first keys */
  private shape: Float64Array;
  private readonly shapes: Set<number> | undefined;
  /** keys too long to hash, each a shape of its own */
  private longKeys = 0;
  private readonly recent: Float64Array;
  private containers = 0;
  private values = 1;
  /** the next string opens a key */
  private keyNext = false;
  private inString = false;
  /** the open string is a key: its hash lanes and bytes so far */
  private inKey = false;
  private laneA = 0;
  private laneB = 0;
  private keyBytes = 0;
  /** the first byte of the next piece is escaped */
  private escaped = false;
  /** the last byte outside strings that was not whitespace */
  private last = 0;

  constructor(
    private readonly bounds: JsonBounds,
    length: number,
  ) {
    this.counting = length >= countedFrom(bounds);
    this.maxDepth = bounds.depth ?? Number.POSITIVE_INFINITY;
    // a text too short to be counted allocates nothing for counting
    this.shape = new Float64Array(this.counting ? 64 : 0);
    this.shapes = this.counting ? new Set<number>() : undefined;
    this.recent = new Float64Array(this.counting ? RECENT_SLOTS : 0);
  }

  /** The next bytes of the text; the excess once a bound is passed (and ever after). */
  feed(bytes: Uint8Array): JsonExcess | undefined {
    let i = this.inString ? this.string(bytes, 0) : 0;
    const n = bytes.length;
    const counting = this.counting;
    while (i < n && this.excess === undefined) {
      const action = ACTION[bytes[i] as number] as number;
      if (action === 0) {
        i += 1;
      } else if (action === 1) {
        this.inString = true;
        this.inKey = this.keyNext && counting;
        this.keyNext = false;
        if (this.inKey) this.openKey();
        i = this.string(bytes, i + 1);
      } else if (action === 2) {
        this.open(bytes[i] === OPEN_OBJECT);
        i += 1;
      } else if (action === 3) {
        if (this.depth > 0) this.depth -= 1;
        this.keyNext = false;
        // a level that is not empty holds one value more than its commas say
        let j = i - 1;
        while (j >= 0 && WHITESPACE[bytes[j] as number] === 1) j--;
        const before = j >= 0 ? bytes[j] : this.last;
        if (counting && before !== OPEN_OBJECT && before !== OPEN_ARRAY) this.value();
        i += 1;
      } else {
        this.keyNext = this.depth > 0 && this.keys[this.depth - 1] !== ARRAY;
        if (counting) this.value();
        i += 1;
      }
    }
    if (!this.inString) {
      let j = n - 1;
      while (j >= 0 && WHITESPACE[bytes[j] as number] === 1) j--;
      if (j >= 0) this.last = bytes[j] as number;
    } else this.last = QUOTE;
    return this.excess;
  }

  private passed(bound: JsonBound, limit: number): void {
    this.excess = { bound, limit };
  }

  private open(object: boolean): void {
    const d = this.depth;
    if (d >= this.maxDepth) {
      this.passed("depth", this.maxDepth);
      return;
    }
    if (d === this.keys.length) this.keys = grown(this.keys);
    this.keys[d] = object ? 0 : ARRAY;
    this.keyNext = object;
    this.depth = d + 1;
    if (!this.counting) return;
    if (d === this.shape.length) this.shape = grown(this.shape);
    this.shape[d] = EMPTY_SHAPE;
    if (++this.containers > this.bounds.containers) {
      this.passed("containers", this.bounds.containers);
    }
  }

  private value(): void {
    if (++this.values > this.bounds.values) this.passed("values", this.bounds.values);
  }

  /** A key opens: its hash starts from its object's keys so far (or the dictionary's seed). */
  private openKey(): void {
    const level = this.depth - 1;
    const seed =
      level >= 0 && (this.keys[level] as number) < SHAPE_KEYS
        ? (this.shape[level] as number)
        : DICTIONARY_KEYS;
    this.laneA = (seed / 0x200000) >>> 0;
    this.laneB = (seed ^ 0x5bd1e995) >>> 0;
    this.keyBytes = 0;
  }

  /**
   * The open string from `from`: where it closes, plus one, or the end of `bytes` (still
   * open). A key's first HASHED_KEY bytes are hashed byte by byte; the rest of a string is
   * searched for its closing quote.
   */
  private string(bytes: Uint8Array, from: number): number {
    let i = from;
    if (this.escaped && i < bytes.length) {
      this.escaped = false;
      this.hashByte(bytes[i] as number);
      i += 1;
    }
    if (this.inKey && this.keyBytes <= HASHED_KEY) {
      for (; i < bytes.length && this.keyBytes <= HASHED_KEY; i++) {
        const c = bytes[i] as number;
        if (c === QUOTE) return this.closeString(i);
        this.hashByte(c);
        if (c === BACKSLASH) {
          if (i + 1 === bytes.length) {
            this.escaped = true;
            return bytes.length;
          }
          i += 1;
          this.hashByte(bytes[i] as number);
        }
      }
    }
    if (i >= bytes.length) return bytes.length;
    // the closing quote: one not preceded by an odd run of backslashes since `i`
    let q = bytes.indexOf(QUOTE, i);
    while (q >= 0) {
      let slashes = 0;
      while (q - 1 - slashes >= i && bytes[q - 1 - slashes] === BACKSLASH) slashes++;
      if (slashes % 2 === 0) return this.closeString(q);
      q = bytes.indexOf(QUOTE, q + 1);
    }
    let slashes = 0;
    while (bytes.length - 1 - slashes >= i && bytes[bytes.length - 1 - slashes] === BACKSLASH) {
      slashes++;
    }
    this.escaped = slashes % 2 === 1;
    return bytes.length;
  }

  private hashByte(c: number): void {
    this.laneA = Math.imul(this.laneA ^ c, 0x01000193);
    this.laneB = Math.imul(this.laneB ^ c, 0x5bd1e995) ^ (this.laneB >>> 13);
    this.keyBytes += 1;
  }

  /** The string closes at `quote`; a key becomes its object's next shape. */
  private closeString(quote: number): number {
    this.inString = false;
    if (!this.inKey) return quote + 1;
    this.inKey = false;
    const level = this.depth - 1;
    const n = level >= 0 ? (this.keys[level] as number) : 0;
    if (level >= 0) this.keys[level] = n + 1;
    let next: number;
    if (this.keyBytes > HASHED_KEY) {
      // too long to hash: a shape of its own, and so is every later prefix of its object
      this.longKeys += 1;
      next = -this.longKeys;
    } else {
      const a = Math.imul(this.laneA ^ QUOTE, 0x01000193); // "ab","c" is not "a","bc"
      next = (a >>> 0) * 0x200000 + ((this.laneB >>> 0) & 0x1fffff);
      const slot = next & (RECENT_SLOTS - 1);
      if (this.recent[slot] !== next) {
        this.recent[slot] = next;
        this.shapes?.add(next);
      }
    }
    if (level >= 0 && n < SHAPE_KEYS) this.shape[level] = next;
    if ((this.shapes?.size ?? 0) + this.longKeys > this.bounds.shapes) {
      this.passed("shapes", this.bounds.shapes);
    }
    return quote + 1;
  }
}

/** The first bound a whole text passes, or undefined: it may be parsed. */
export function exceeds(bytes: Uint8Array, bounds: JsonBounds): JsonExcess | undefined {
  if (!scanned(bounds, bytes.length)) return undefined;
  return new JsonScan(bounds, bytes.length).feed(bytes);
}

/** What a text that passes `excess` does, as a verb phrase: "holds more than … values". */
export function excessText(excess: JsonExcess): string {
  const n = excess.limit;
  switch (excess.bound) {
    case "depth":
      return `nests deeper than ${n} levels of arrays and objects`;
    case "containers":
      return `holds more than ${n} arrays and objects`;
    case "values":
      return `holds more than ${n} values (array elements and object members)`;
    case "shapes":
      return `holds more than ${n} distinct object shapes and keys`;
  }
}
