/**
 * What parsing a JSON text would build, bounded before it is parsed (SPEC §4.8, §8.2): the
 * runtime's JSON.parse turns a few bytes into far more memory — an empty object, a key seen
 * for the first time, a new order of keys (a new object shape) — so a byte limit alone
 * leaves a message worth gigabytes (docs/PERFORMANCE.md, "Hostile input"). One linear pass
 * over the bytes, strings skipped and keys hashed, stops at the first bound passed:
 * - depth: nesting of arrays and objects;
 * - containers: arrays and objects;
 * - values: array elements and object members (and the text itself), from the commas and
 *   the containers that are not empty;
 * - shapes: distinct key sequences among an object's first SHAPE_KEYS keys (past them the
 *   runtime keeps the object as a dictionary) and distinct keys past them.
 * A text of n bytes holds fewer than n containers, values or shapes, so those are counted
 * only in a text at least as long as the smallest of their bounds; depth always.
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
/** Strings up to this long are scanned byte by byte; longer ones are searched. */
const SHORT_STRING = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
/** a stack entry for an array (object entries count their keys from 0) */
const ARRAY = -1;
/** the hash of an object with no key yet, and the seed of keys past SHAPE_KEYS */
const EMPTY_SHAPE = 0x811c9dc5;
const DICTIONARY_KEYS = 0x2545f491;
/** the bytes the scan stops at (1); the rest is passed over (0) */
const STRUCTURAL = Uint8Array.from({ length: 256 }, (_, c) =>
  [QUOTE, COMMA, OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY].includes(c) ? 1 : 0,
);
/** JSON's whitespace (1) */
const WHITESPACE = Uint8Array.from({ length: 256 }, (_, c) =>
  c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d ? 1 : 0,
);
/** shapes recently counted, by their low bits: a repeated shape skips the set */
const RECENT_SLOTS = 1024;

/** Where the string opened at `open` closes (the quote not escaped), or -1. */
function stringEnd(bytes: Uint8Array, open: number): number {
  let end = open + 1;
  for (const stop = Math.min(bytes.length, open + SHORT_STRING); end < stop; end++) {
    const c = bytes[end] as number;
    if (c === QUOTE) return end;
    if (c === BACKSLASH) break;
  }
  end = bytes.indexOf(QUOTE, end);
  while (end >= 0) {
    let slashes = 0;
    while (bytes[end - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return end;
    end = bytes.indexOf(QUOTE, end + 1);
  }
  return -1;
}

/** Whether the container closed at `close` is empty: its opening bracket comes just before. */
function emptyBefore(bytes: Uint8Array, close: number): boolean {
  let j = close - 1;
  while (j >= 0 && WHITESPACE[bytes[j] as number] === 1) j--;
  return bytes[j] === OPEN_OBJECT || bytes[j] === OPEN_ARRAY;
}

/** A 53-bit hash of `seed` extended by the key in bytes [from, to): two FNV-1a lanes. */
function extend(seed: number, bytes: Uint8Array, from: number, to: number): number {
  let a = (seed / 0x200000) >>> 0;
  let b = (seed ^ 0x5bd1e995) >>> 0;
  for (let i = from; i < to; i++) {
    const c = bytes[i] as number;
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 13);
  }
  a = Math.imul(a ^ QUOTE, 0x01000193); // the key's end: "ab","c" is not "a","bc"
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}

/** The first bound `bytes` (one JSON text) passes, or undefined: it may be parsed. */
export function exceeds(bytes: Uint8Array, bounds: JsonBounds): JsonExcess | undefined {
  const maxDepth = bounds.depth ?? Number.POSITIVE_INFINITY;
  const counting = bytes.length >= Math.min(bounds.containers, bounds.values, bounds.shapes);
  if (!counting && bounds.depth === undefined) return undefined;
  /** per open container: ARRAY, or for an object the count of its keys so far */
  const keys: number[] = [];
  /** per open object: the hash of its first keys */
  const prefix: number[] = [];
  const shapes = new Set<number>();
  const recent = counting ? new Float64Array(RECENT_SLOTS) : undefined;
  let containers = 0;
  let values = 1;
  let keyNext = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (STRUCTURAL[b] === 0) continue;
    if (b === QUOTE) {
      const end = stringEnd(bytes, i);
      if (end < 0) return undefined; // unterminated: not JSON, JSON.parse says so
      if (keyNext && recent !== undefined) {
        const top = keys.length - 1;
        const n = keys[top] as number;
        keys[top] = n + 1;
        const seed = n < SHAPE_KEYS ? (prefix[prefix.length - 1] as number) : DICTIONARY_KEYS;
        const shape = extend(seed, bytes, i + 1, end);
        if (n < SHAPE_KEYS) prefix[prefix.length - 1] = shape;
        const slot = shape & (RECENT_SLOTS - 1);
        if (recent[slot] !== shape) {
          recent[slot] = shape;
          shapes.add(shape);
          if (shapes.size > bounds.shapes) return { bound: "shapes", limit: bounds.shapes };
        }
      }
      keyNext = false;
      i = end;
    } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      if (keys.length >= maxDepth) return { bound: "depth", limit: maxDepth };
      const object = b === OPEN_OBJECT;
      keys.push(object ? 0 : ARRAY);
      keyNext = object;
      if (!counting) continue;
      if (object) prefix.push(EMPTY_SHAPE);
      containers += 1;
      if (containers > bounds.containers) {
        return { bound: "containers", limit: bounds.containers };
      }
    } else if (b === COMMA) {
      keyNext = (keys[keys.length - 1] ?? ARRAY) !== ARRAY;
      if (counting && ++values > bounds.values) return { bound: "values", limit: bounds.values };
    } else {
      if (keys.pop() !== ARRAY && counting) prefix.pop();
      keyNext = false;
      // a container that is not empty holds one value more than its commas say
      if (counting && !emptyBefore(bytes, i) && ++values > bounds.values) {
        return { bound: "values", limit: bounds.values };
      }
    }
  }
  return undefined;
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
