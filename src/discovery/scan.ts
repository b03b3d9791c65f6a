/**
 * The file extensions present in a workspace (SPEC §2.1): a breadth-first walk that never
 * enters an ignored or vendored tree (ignore.ts), never follows a symlink, and stops after
 * `maxEntries` directory entries — so its cost is bounded by the project's own files
 * however large node_modules or .git are. Shallow files are seen first.
 */
import { readdir } from "node:fs/promises";
import { extname, join } from "node:path";
import { readWorkspaceText } from "../workspace/confined.ts";
import { realRoot } from "../workspace/files.ts";
import { gitignoreMatcher, skippedByName } from "./ignore.ts";

export interface ScanResult {
  /** extensions without the dot */
  extensions: Set<string>;
  /** directory entries looked at */
  entries: number;
  /** the bound was reached before the walk ended */
  truncated: boolean;
}

export const MAX_SCAN_ENTRIES = 20_000;

/** A `.gitignore` larger than this is not honoured (it is workspace content: SPEC §8.1). */
const MAX_GITIGNORE_BYTES = 1 << 20;

function readGitignore(root: string): string {
  try {
    return readWorkspaceText(realRoot(root), ".gitignore", MAX_GITIGNORE_BYTES).text;
  } catch {
    return "";
  }
}

/**
 * Walk `root`. `enough(extensions)` may end the walk early once nothing more could change
 * the caller's decision.
 */
export async function scanExtensions(
  root: string,
  maxEntries = MAX_SCAN_ENTRIES,
  enough: (extensions: ReadonlySet<string>) => boolean = () => false,
): Promise<ScanResult> {
  const ignored = gitignoreMatcher(readGitignore(root));
  const extensions = new Set<string>();
  let entries = 0;
  const queue: string[] = [""];
  for (let next = 0; next < queue.length; next++) {
    const dir = queue[next] as string;
    let names: import("node:fs").Dirent[];
    try {
      names = await readdir(join(root, dir), { withFileTypes: true });
    } catch {
      continue; // unreadable or gone meanwhile: nothing to learn there
    }
    // sorted, so the same tree gives the same answer under the bound
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of names) {
      if (++entries > maxEntries) return { extensions, entries: maxEntries, truncated: true };
      const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skippedByName(entry.name) && !ignored(rel, true)) queue.push(rel);
      } else if (entry.isFile() && !ignored(rel, false)) {
        const ext = extname(entry.name).slice(1);
        if (ext !== "" && !extensions.has(ext)) {
          extensions.add(ext);
          if (enough(extensions)) return { extensions, entries, truncated: false };
        }
      }
    }
  }
  return { extensions, entries, truncated: false };
}
