/**
 * The files present in a workspace (SPEC §2.1): extensions, names and `#!` interpreters,
 * counted (those aside apart, rank.ts). Breadth-first, never into an ignored tree
 * (ignore.ts) or through a symlink, bounded by `maxEntries` and MAX_SCRIPT_HEADS.
 */
import { closeSync, readSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { extname, join } from "node:path";
import { shebangInterpreter } from "../config/server-files.ts";
import { openWorkspaceFileInDir } from "../workspace/confined.ts";
import { realRoot } from "../workspace/files.ts";
import type { FileCount, FileCounts } from "./files-served.ts";
import { gitignoreMatcher, skippedByName } from "./ignore.ts";
import { ASIDE_DIRS } from "./rank.ts";
import { rootText } from "./toolchain.ts";

export interface ScanResult {
  /** extensions without the dot */
  extensions: Set<string>;
  /** file names (without their directory) */
  names: Set<string>;
  /** interpreters named by the `#!` lines of files without an extension */
  interpreters: Set<string>;
  /** files of each extension, name and `#!` interpreter, in the project and aside */
  counts: FileCounts;
  /** directory entries looked at */
  entries: number;
  /** the bound was reached before the walk ended */
  truncated: boolean;
}

export const MAX_SCAN_ENTRIES = 20_000;

/** First lines read for `#!` (files without an extension), and how much of each. */
export const MAX_SCRIPT_HEADS = 200;
const HEAD_BYTES = 256;

/** The `#!` interpreter of a workspace file, read beneath the root; undefined if none. */
function scriptInterpreter(rootReal: string, rel: string): string | undefined {
  let opened: ReturnType<typeof openWorkspaceFileInDir>;
  try {
    opened = openWorkspaceFileInDir(rootReal, rel);
  } catch {
    return undefined; // gone, unreadable, not a regular file: no script to route
  }
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const n = readSync(opened.fd, head, 0, HEAD_BYTES, 0);
    return shebangInterpreter(head.subarray(0, n).toString("utf8").split("\n")[0] ?? "");
  } catch {
    return undefined;
  } finally {
    closeSync(opened.fd);
    closeSync(opened.dirFd);
  }
}

function count(table: Map<string, FileCount>, key: string, aside: boolean): void {
  const c = table.get(key) ?? { project: 0, aside: 0 };
  table.set(key, c);
  c[aside ? "aside" : "project"] += 1;
}

/** Walk `root`; `enough(extensions)` ends it once nothing more could change the decision. */
export async function scanExtensions(
  root: string,
  maxEntries = MAX_SCAN_ENTRIES,
  enough: (extensions: ReadonlySet<string>) => boolean = () => false,
): Promise<ScanResult> {
  // a larger `.gitignore` than rootText's bound is not honoured (workspace content, SPEC §8.1)
  const ignored = gitignoreMatcher(rootText(root, ".gitignore"));
  const found: ScanResult = {
    extensions: new Set<string>(),
    names: new Set<string>(),
    interpreters: new Set<string>(),
    counts: { extensions: new Map(), names: new Map(), interpreters: new Map() },
    entries: 0,
    truncated: false,
  };
  const { extensions, names, interpreters, counts } = found;
  let rootReal: string | undefined;
  let heads = 0;
  let entries = 0;
  const queue: string[] = [""];
  /** the queued directories under test data or tooling */
  const asideDirs = new Set<string>();
  for (let next = 0; next < queue.length; next++) {
    const dir = queue[next] as string;
    const aside = asideDirs.has(dir);
    let listing: import("node:fs").Dirent[];
    try {
      listing = await readdir(join(root, dir), { withFileTypes: true });
    } catch {
      continue; // unreadable or gone meanwhile: nothing to learn there
    }
    // sorted, so the same tree gives the same answer under the bound
    listing.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of listing) {
      if (++entries > maxEntries) return { ...found, entries: maxEntries, truncated: true };
      const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skippedByName(entry.name) && !ignored(rel, true)) {
          queue.push(rel);
          if (aside || ASIDE_DIRS.has(entry.name)) asideDirs.add(rel);
        }
      } else if (entry.isFile() && !ignored(rel, false)) {
        names.add(entry.name);
        count(counts.names, entry.name, aside);
        const ext = extname(entry.name).slice(1);
        if (ext === "" && heads < MAX_SCRIPT_HEADS) {
          heads++;
          rootReal ??= realRoot(root);
          const interpreter = scriptInterpreter(rootReal, rel);
          if (interpreter !== undefined) {
            interpreters.add(interpreter);
            count(counts.interpreters, interpreter, aside);
          }
        } else if (ext !== "") {
          count(counts.extensions, ext, aside);
          if (!extensions.has(ext)) {
            extensions.add(ext);
            if (enough(extensions)) return { ...found, entries };
          }
        }
      }
    }
  }
  return { ...found, entries };
}
