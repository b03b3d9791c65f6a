/**
 * `diagnostics {contents}`'s checks before anything reaches a server (SPEC §6.2), pure:
 * each text within bridge.max_file_bytes, all of them within MAX_CONTENTS_BYTES, each file
 * named once. Their errors are contents-errors.ts's.
 */
import { tooLargeError } from "../../workspace/file-errors.ts";
import { contentsTooLarge, contentsTwice } from "./contents-errors.ts";

/** At most this many proposed files in one call. */
export const MAX_CONTENTS = 16;

/** All proposed texts together, in UTF-8 bytes: the MCP message limit (SPEC §4.8). */
export const MAX_CONTENTS_BYTES = 8 * 1024 * 1024;

export interface Content {
  file: string;
  text: string;
}

/** FileTooLarge for the first text past `maxFileBytes`, or for all of them past the bound. */
export function checkSizes(contents: readonly Content[], maxFileBytes: number): void {
  let total = 0;
  for (const c of contents) {
    const bytes = Buffer.byteLength(c.text, "utf8");
    if (bytes > maxFileBytes) throw tooLargeError(c.file, bytes, maxFileBytes);
    total += bytes;
  }
  if (total > MAX_CONTENTS_BYTES) {
    throw contentsTooLarge(total, MAX_CONTENTS_BYTES);
  }
}

/** InvalidArgument when two entries name one file (`rels`: each entry's resolved path). */
export function checkOnce(contents: readonly Content[], rels: readonly string[]): void {
  const seen = new Map<string, string>();
  for (const [i, rel] of rels.entries()) {
    const first = seen.get(rel);
    const file = contents[i]?.file ?? rel;
    if (first !== undefined) {
      throw contentsTwice(rel, first, file);
    }
    seen.set(rel, file);
  }
}
