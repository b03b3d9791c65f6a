/**
 * What `diagnostics {contents}` refuses in its proposed texts (SPEC §6.2), built in one
 * place: too many bytes together, a file named twice, an argument `contents` does not
 * take, more files than the server may hold open.
 */
import { BridgeError } from "../../errors.ts";

/** All proposed texts together, `total` bytes, over `max`. */
export function contentsTooLarge(total: number, max: number): BridgeError {
  return new BridgeError(
    "FileTooLarge",
    `contents are ${total} bytes together, over the ${max} limit`,
    {
      hint: "propose fewer or smaller files per call",
      details: { bytes: total, max_bytes: max },
    },
  );
}

/** Two entries resolving to `rel`: `first` and `file` as the caller named them. */
export function contentsTwice(rel: string, first: string, file: string): BridgeError {
  return new BridgeError("InvalidArgument", `contents name ${rel} twice`, {
    hint: "give each file once, with the whole text proposed for it",
    details: { file: rel, entries: [first, file] },
  });
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
