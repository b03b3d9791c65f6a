/**
 * How deep an incoming MCP message nests, found from its bytes before it is parsed (SPEC
 * §4.8): the SDK and the bridge walk a message recursively (its validation, a log line
 * that serializes it), and a 40,000-level `result` of 80 KB overflowed the stack inside
 * the read loop. No MCP message nests anywhere near MAX_DEPTH; one that does is refused
 * whole, at the cost of one pass over its bytes, which stops at the level too many.
 */

/** SPEC §4.8: the deepest nesting of arrays and objects a message may have. */
export const MAX_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether `bytes` (one JSON text) nests arrays and objects deeper than `max`. */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b === QUOTE) {
      // to the closing quote: one not preceded by an odd run of backslashes
      let end = bytes.indexOf(QUOTE, i + 1);
      for (;;) {
        if (end < 0) return false; // unterminated: not JSON, JSON.parse says so
        let slashes = 0;
        while (bytes[end - 1 - slashes] === BACKSLASH) slashes++;
        if (slashes % 2 === 0) break;
        end = bytes.indexOf(QUOTE, end + 1);
      }
      i = end;
    } else if (b === 0x7b || b === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else if (b === 0x7d || b === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}
