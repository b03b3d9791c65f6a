/**
 * A rename writes only renames (SPEC §7.3), pure. A server is untrusted (SPEC §8): at each
 * renamed site it may write the new name, or one of the forms servers write to keep a
 * second name bound (an import's or export's alias, a shorthand property or pattern
 * spelled out: docs/LANGUAGE-SERVERS.md) — nothing else, however it holds the new name.
 * And the digest of an edit set, which ties `rename_apply` to the `rename_preview` a client
 * reviewed: the apply asks the server again, and writes only when its edit set is the one
 * previewed. The refusals are `EditInvalid`, built in edit-set-errors.ts.
 */
import { createHash } from "node:crypto";
import type { LspRange } from "../text/positions.ts";

/** What a renamed site may write in place of `o`, renamed to `n`. */
export const RENAME_FORMS: readonly { form: string; write: (o: string, n: string) => string }[] = [
  { form: "new", write: (_o, n) => n },
  // an import renamed where it is imported: rust-analyzer, tsserver (`import { o as n }`)
  { form: "old as new", write: (o, n) => `${o} as ${n}` },
  // a local renamed that an export names: tsserver keeps the exported name (`export { n as o }`)
  { form: "new as old", write: (o, n) => `${n} as ${o}` },
  // a shorthand property or pattern (`{ o }`) spelled out: the property kept …
  { form: "old: new", write: (o, n) => `${o}: ${n}` },
  // … or the local kept, the property renamed
  { form: "new: old", write: (o, n) => `${n}: ${o}` },
];

/** A site's verdict: a rename, an edit on other text, or other text written. */
export type SiteVerdict = "rename" | "other_text" | "not_a_rename";

/**
 * One renamed site: the whole words it touches, `replaced` (the text there) becoming
 * `written` (the text there after the site's edits).
 */
export function judgeSite(
  replaced: string,
  written: string,
  oldName: string,
  newName: string,
): SiteVerdict {
  if (replaced !== oldName) return "other_text";
  return RENAME_FORMS.some((f) => f.write(oldName, newName) === written)
    ? "rename"
    : "not_a_rename";
}

/**
 * One file of an edit set: its path as answers name it (workspace-relative, so that a bridge
 * on a copy of the workspace gives the same digest), the SHA-256 of the text the edits apply
 * to, the edits.
 */
export interface DigestFile {
  file: string;
  sha256: string;
  edits: readonly { range: LspRange; newText: string }[];
}

/**
 * The digest of an edit set: the new name, and per file (in path order) the text's hash
 * and the edits (in range order) — equal exactly when the same edits apply to the same texts.
 */
export function editSetDigest(newName: string, files: readonly DigestFile[]): string {
  const canonical = [...files]
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
    .map((f) => [
      f.file,
      f.sha256,
      f.edits
        .map((e) => [
          e.range.start.line,
          e.range.start.character,
          e.range.end.line,
          e.range.end.character,
          e.newText,
        ])
        .sort((a, b) => {
          for (let i = 0; i < 4; i++) {
            const d = (a[i] as number) - (b[i] as number);
            if (d !== 0) return d;
          }
          return a[4] === b[4] ? 0 : (a[4] as string) < (b[4] as string) ? -1 : 1;
        }),
    ]);
  return createHash("sha256")
    .update(JSON.stringify([newName, canonical]))
    .digest("hex");
}
