/**
 * Which of a workspace's files a preset would serve (SPEC §2.1, §4.5), pure: by extension,
 * by file name (`Dockerfile`, `CMakeLists.txt`, `.bashrc`) and by the interpreter a
 * script's `#!` line names — the same tables routing reads (config/server-files.ts). The
 * labels say it in the report: `.sh`, `Dockerfile`, `#!bash`.
 */
import type { Preset } from "../config/presets.ts";
import { languageOfFile, nameMatches } from "../config/server-files.ts";

/** What the scan found (scan.ts). */
export interface WorkspaceFiles {
  extensions: ReadonlySet<string>;
  names?: ReadonlySet<string>;
  interpreters?: ReadonlySet<string>;
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
