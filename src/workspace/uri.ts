/**
 * file:// URIs ↔ absolute paths. Encoding follows Node/Bun `url.pathToFileURL`, which
 * percent-encodes the way editors' URI libraries do for the characters that matter
 * (space, `%`, `#`, `?`, non-ASCII).
 */

import { fileURLToPath, pathToFileURL } from "node:url";

export function pathToUri(abs: string): string {
  return pathToFileURL(abs).href;
}

/**
 * A `file:///` URI whose path `fileURLToPath` returns unchanged: characters URL parsing
 * neither encodes, decodes nor treats specially (no `%`, `\\`, `?`, `#`, controls, spaces or
 * non-ASCII) and no `.` or `..` segment (URL parsing resolves those): its path is the URI's
 * rest as it stands. Servers name most files this way, a reference list hundreds of them.
 */
const PLAIN_FILE_URI = /^file:\/\/\/[A-Za-z0-9_~!$&'()*+,;=:@./-]*$/;
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

/** Absolute path of a file URI; null for non-file URIs and for ones no local path can name (a remote host). */
export function uriToPath(uri: string): string | null {
  if (PLAIN_FILE_URI.test(uri) && !DOT_SEGMENT.test(uri)) return uri.slice(7);
  if (!/^file:/i.test(uri)) return null;
  try {
    return fileURLToPath(uri);
  } catch {
    return null;
  }
}
