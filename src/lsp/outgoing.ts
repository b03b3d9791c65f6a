/**
 * A message to a server as it will be written (SPEC §8.2): its exact size in UTF-8, and its
 * JSON in parts — text, and the long strings it carries (a document's content), left to be
 * escaped piece by piece when the message is written. A document of 8 MiB of control
 * characters is 48 MiB of JSON: made whole, eight of them at once held hundreds of MB; in
 * pieces, a message written costs one piece beside the string it already is, and one
 * waiting costs nothing but its size.
 *
 * Only the first MAX_NODES values of a message are looked into for long strings (a
 * document notification has a dozen); the rest is JSON.stringify's, made at once.
 */
import { jsonStringBytes } from "../text/json-string.ts";
import { textPieces } from "../write-backlog.ts";

/** A string this long (UTF-16 units) is written in pieces. */
export const LONG_STRING = 64 * 1024;
/** Characters escaped and written at a time. */
export const PIECE_CHARS = 64 * 1024;
const MAX_NODES = 64;

/** JSON text, or a long string to be written as a JSON string. */
export type Part = Buffer | { long: string };

export interface Outgoing {
  /** UTF-8 bytes of the whole message */
  bytes: number;
  /** … of the parts made already (all but the long strings) */
  made: number;
  parts: Part[];
}

/** `msg` planned for writing: made at once unless it holds a long string. */
export function outgoing(msg: unknown): Outgoing {
  const seen = { nodes: 0 };
  if (!holdsLong(msg, seen)) {
    const body = Buffer.from(JSON.stringify(msg), "utf8");
    return { bytes: body.length, made: body.length, parts: [body] };
  }
  const texts: string[] = [];
  const parts: Part[] = [];
  const flush = () => {
    if (texts.length > 0) parts.push(Buffer.from(texts.splice(0).join(""), "utf8"));
  };
  split(msg, texts, (long) => {
    flush();
    parts.push({ long });
  });
  flush();
  let bytes = 0;
  let made = 0;
  for (const p of parts) {
    if (Buffer.isBuffer(p)) made += p.length;
    else bytes += jsonStringBytes(p.long);
  }
  return { bytes: bytes + made, made, parts };
}

/** The pieces of a long string's JSON, quotes included, each made only when asked. */
export function* stringPieces(s: string): Generator<Buffer> {
  yield Buffer.from('"');
  // a surrogate pair stays whole: apart, each half would be escaped
  for (const piece of textPieces(s, PIECE_CHARS)) {
    const json = Buffer.from(JSON.stringify(piece), "utf8");
    yield json.subarray(1, json.length - 1);
  }
  yield Buffer.from('"');
}

function plain(value: unknown): value is Record<string, unknown> | unknown[] {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && !("toJSON" in value);
}

/** Whether a long string is among the first values of `value` looked into. */
function holdsLong(value: unknown, seen: { nodes: number }): boolean {
  if (seen.nodes++ >= MAX_NODES) return false;
  if (typeof value === "string") return value.length >= LONG_STRING;
  if (!plain(value)) return false;
  const children = Array.isArray(value) ? value : Object.values(value);
  for (const child of children) if (holdsLong(child, seen)) return true;
  return false;
}

/** `value`'s JSON into `texts`, a long string handed to `long` in its place. */
function split(value: unknown, texts: string[], long: (s: string) => void): void {
  if (typeof value === "string" && value.length >= LONG_STRING) {
    long(value);
    return;
  }
  if (!plain(value) || !holdsLong(value, { nodes: 0 })) {
    texts.push(JSON.stringify(value));
    return;
  }
  // JSON.stringify's rules: in an object, members whose value JSON has no text for are left
  // out; in an array, such values are null
  const omitted = (v: unknown) =>
    v === undefined || typeof v === "function" || typeof v === "symbol";
  if (Array.isArray(value)) {
    texts.push("[");
    value.forEach((v, i) => {
      if (i > 0) texts.push(",");
      if (omitted(v)) texts.push("null");
      else split(v, texts, long);
    });
    texts.push("]");
    return;
  }
  texts.push("{");
  let first = true;
  for (const [key, v] of Object.entries(value)) {
    if (omitted(v)) continue;
    texts.push(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
    first = false;
    split(v, texts, long);
  }
  texts.push("}");
}
