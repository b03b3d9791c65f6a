/**
 * `diagnostics {contents}`'s checks before anything reaches a server (SPEC §6.2), pure, and
 * their typed errors, built here: each text within bridge.max_file_bytes, all of them
 * within MAX_CONTENTS_BYTES, each file named once.
 */
import { BridgeError } from "../../errors.ts";
import { tooLargeError } from "../../workspace/file-errors.ts";

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
    throw new BridgeError(
      "FileTooLarge",
      `contents are ${total} bytes together, over the ${MAX_CONTENTS_BYTES} limit`,
      {
        hint: "propose fewer or smaller files per call",
        details: { bytes: total, max_bytes: MAX_CONTENTS_BYTES },
      },
    );
  }
}

/** InvalidArgument when two entries name one file (`rels`: each entry's resolved path). */
export function checkOnce(contents: readonly Content[], rels: readonly string[]): void {
  const seen = new Map<string, string>();
  for (const [i, rel] of rels.entries()) {
    const first = seen.get(rel);
    const file = contents[i]?.file ?? rel;
    if (first !== undefined) {
      throw new BridgeError("InvalidArgument", `contents name ${rel} twice`, {
        hint: "give each file once, with the whole text proposed for it",
        details: { file: rel, entries: [first, file] },
      });
    }
    seen.set(rel, file);
  }
}

/** InvalidArgument: `contents` with an argument it does not take. */
export function contentsWith(other: string): BridgeError {
  return new BridgeError("InvalidArgument", `\`contents\` does not take \`${other}\``, {
    hint: "a preview answers every file it covers, whole, with added and removed against the disk",
    details: { argument: other },
  });
}

/** InvalidArgument: more proposed files than the server may hold open. */
export function tooManyOpen(count: number, max: number): BridgeError {
  return new BridgeError(
    "InvalidArgument",
    `contents propose ${count} files for one server, more than bridge.max_open_documents (${max})`,
    { hint: "propose fewer files per call", details: { count, max_open_documents: max } },
  );
}
