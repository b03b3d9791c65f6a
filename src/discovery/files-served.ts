/**
 * Which of a workspace's files a preset would serve (SPEC §2.1, §4.5), pure, by the tables
 * routing reads (config/server-files.ts); labelled `.sh`, `Dockerfile`, `#!bash`.
 */
import type { Preset } from "../config/presets.ts";
import { languageOfFile, nameMatches } from "../config/server-files.ts";

/** Files counted: in the project, and under test data or tooling directories (rank.ts). */
export interface FileCount {
  project: number;
  aside: number;
}

/** Files by extension, by name, and by `#!` interpreter (files without an extension). */
export interface FileCounts {
  extensions: Map<string, FileCount>;
  names: Map<string, FileCount>;
  interpreters: Map<string, FileCount>;
}

/** What the scan found (scan.ts). */
export interface WorkspaceFiles {
  extensions: ReadonlySet<string>;
  names?: ReadonlySet<string>;
  interpreters?: ReadonlySet<string>;
  counts?: FileCounts;
}

export const extensionsOf = (preset: Preset): string[] => Object.keys(preset.server.extensions);

/** The kinds of files present that `preset` serves, as labels; empty when none. */
export function servedHere(preset: Preset, files: WorkspaceFiles): string[] {
  const labels = extensionsOf(preset)
    .filter((e) => files.extensions.has(e))
    .map((e) => `.${e}`);
  const names = [...(files.names ?? [])];
  for (const pattern of Object.keys(preset.server.filenames)) {
    const hits = names.filter((n) => nameMatches(pattern, n)).sort();
    labels.push(...hits.map((n) => `\`${n}\``));
  }
  for (const interpreter of [...(files.interpreters ?? [])].sort()) {
    if (languageOfFile(preset.server, "script", interpreter) !== undefined) {
      labels.push(`#!${interpreter}`);
    }
  }
  return [...new Set(labels)];
}

/** What a preset serves, for "no … here": `.sh/.bash files, .bashrc or #!sh/bash scripts`. */
export function describeServes(preset: Preset): string {
  const exts = extensionsOf(preset).map((e) => `.${e}`);
  const parts = exts.length > 0 ? [`${exts.join("/")} files`] : [];
  const names = Object.keys(preset.server.filenames);
  if (names.length > 0) parts.push(names.map((n) => `\`${n}\``).join("/"));
  const scripts = Object.keys(preset.server.shebangs);
  if (scripts.length > 0) parts.push(`#!${scripts.join("/")} scripts`);
  return parts.length > 1
    ? `${parts.slice(0, -1).join(", ")} or ${parts.at(-1)}`
    : (parts[0] ?? "files");
}

/** How many of the files counted `preset` serves (a name by its extension counted once). */
export function filesCounted(preset: Preset, counts: FileCounts | undefined): FileCount {
  const total: FileCount = { project: 0, aside: 0 };
  if (counts === undefined) return total;
  const add = (c: FileCount | undefined) => {
    total.project += c?.project ?? 0;
    total.aside += c?.aside ?? 0;
  };
  const exts = extensionsOf(preset);
  for (const e of exts) add(counts.extensions.get(e));
  const patterns = Object.keys(preset.server.filenames);
  if (patterns.length > 0) {
    for (const [name, c] of counts.names) {
      const ext = name.includes(".") ? name.slice(name.lastIndexOf(".") + 1) : "";
      // a pattern's fixed head first: most names are nobody's, and a pattern is a RegExp
      const named = patterns.some(
        (p) => name.startsWith(p.split("*")[0] ?? "") && nameMatches(p, name),
      );
      if (named && !exts.includes(ext)) add(c);
    }
  }
  for (const [interpreter, c] of counts.interpreters) {
    if (languageOfFile(preset.server, "script", interpreter) !== undefined) add(c);
  }
  return total;
}
