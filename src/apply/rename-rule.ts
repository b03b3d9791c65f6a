/**
 * A rename writes only renames (SPEC §7.3), pure. A server is untrusted (SPEC §8): at each
 * renamed site it may write the new name, or one of the forms servers write to keep a
 * second name bound (an import's or export's alias, a shorthand property or pattern
 * spelled out: docs/LANGUAGE-SERVERS.md) — nothing else, however it holds the new name.
 * And the digest of an edit set, which ties `rename_apply` to the `rename_preview` a client
 * reviewed: the apply asks the server again, and writes only when its edit set is the one
 * previewed. The refusals are `EditInvalid`, built here.
 */
import { createHash } from "node:crypto";
import { BridgeError } from "../errors.ts";
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

/** A text an error repeats, bounded. */
function shown(text: string): string {
  return text.length > 64 ? `${text.slice(0, 64)}…` : text;
}

/** Where a refused site is: its file, edit index and 1-based line and column (code points). */
export interface SitePlace {
  file: string;
  index: number;
  line: number;
  column: number;
}

/** The refusal of a rename whose site is no rename of `oldName` to `newName`. */
export function siteRefused(
  verdict: Exclude<SiteVerdict, "rename">,
  at: SitePlace,
  replaced: string,
  written: string,
  oldName: string,
  newName: string,
): BridgeError {
  const where = `${at.file}:${at.line}:${at.column}`;
  const base = { ...at, replaced: shown(replaced), expected: oldName };
  if (verdict === "other_text") {
    return new BridgeError(
      "EditInvalid",
      `edit set rejected: ${where}: the rename replaces ${JSON.stringify(shown(replaced))} there, not the renamed name ${JSON.stringify(oldName)}`,
      {
        hint: "nothing was written; the server's positions do not match the file's text (its line model or a stale copy); rename again, or check the server's `line_terminators`",
        details: base,
      },
    );
  }
  return new BridgeError(
    "EditInvalid",
    `edit set rejected: ${where}: the rename writes ${JSON.stringify(shown(written))} there, which is no rename of ${JSON.stringify(oldName)} to ${JSON.stringify(newName)}`,
    {
      hint: `nothing was written; a rename edit may write only the new name (or \`old as new\`, \`new as old\`, \`old: new\`, \`new: old\`); the server wrote other text`,
      details: { ...base, written: shown(written) },
    },
  );
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

/**
 * The refusal of an apply whose edit set is not the one the client previewed: a rename's
 * (rename_preview), or another edit's and the tool that previews it (formatting).
 */
export function notPreviewed(
  previewed: string,
  now: string,
  what = "rename",
  preview = "rename_preview",
): BridgeError {
  return new BridgeError(
    "EditInvalid",
    `edit set rejected: the ${what} computed now differs from the one ${preview} showed (edit_set)`,
    {
      hint: `nothing was written; files changed since the preview, or the server answers differently; call ${preview} again, review it, and pass its edit_set`,
      details: { reason: "not_previewed", previewed, edit_set: now },
    },
  );
}
