/**
 * file:// URIs ↔ absolute paths. Encoding follows Node/Bun `url.pathToFileURL`, which
 * percent-encodes the way editors' URI libraries do for the characters that matter
 * (space, `%`, `#`, `?`, non-ASCII).
 */

import { fileURLToPath, pathToFileURL } from "node:url";

export function pathToUri(abs: string): string {
  return pathToFileURL(abs).href;
}

/** Absolute path of a file URI; null for non-file URIs and for ones no local path can name (a remote host). */
export function uriToPath(uri: string): string | null {
  if (!/^file:/i.test(uri)) return null;
  try {
    return fileURLToPath(uri);
  } catch {
    return null;
  }
}
