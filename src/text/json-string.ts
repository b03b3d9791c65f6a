/**
 * The size of a string written as JSON, in UTF-8, found without writing it (SPEC §8.2): a
 * document of 8 MiB of control characters is 48 MiB of JSON, and what waits for a server is
 * bounded before anything of it is made. JSON.stringify's escapes: `"`, `\` and the control
 * characters with a short form (\b \t \n \f \r) take 2 bytes, the other characters below
 * U+0020 6 (`\u00XX`), a lone surrogate 6 (`\uXXXX`); every other character its UTF-8 bytes.
 * Counted by native scans (count.ts), never a loop over characters.
 */
import { countChars } from "./count.ts";

/** escaped as `\u00XX` */
const SIX = "\\x00-\\x07\\x0b\\x0e-\\x1f";
/** escaped as a backslash and one character */
const TWO = '\\x08\\x09\\x0a\\x0c\\x0d"\\\\';
const SURROGATE = /[\ud800-\udfff]/;

/** Bytes of `JSON.stringify(s)` in UTF-8, quotes included. */
export function jsonStringBytes(s: string): number {
  // Buffer.byteLength counts a lone surrogate as U+FFFD: 3 bytes of the 6 its escape takes
  const lone = SURROGATE.test(s) ? loneSurrogates(s) : 0;
  return 2 + Buffer.byteLength(s, "utf8") + 5 * countChars(s, SIX) + countChars(s, TWO) + 3 * lone;
}

/**
 * Surrogates not in a pair, one match each: texts read from files hold none (they are valid
 * UTF-8), so only a string from elsewhere pays this.
 */
function loneSurrogates(s: string): number {
  const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
  let n = 0;
  while (lone.exec(s) !== null) n += 1;
  return n;
}
