/**
 * compile_commands.json validation (SPEC §3.4), pure: a JSON array of entries
 * each with `directory`, `file` and `command` or `arguments`. Without a valid
 * database clangd silently guesses flags and answers wrongly.
 * Which files it names decides which files the server sees as part of the program
 * (SPEC §4.3 `outside_program`).
 */
import { resolve } from "node:path";

export type CompileCommandsCheck =
  | { ok: true; entries: number }
  | { ok: false; reason: string; index: number | null };

function isString(v: unknown): v is string {
  return typeof v === "string" && v.length > 0;
}

export function checkCompileCommands(text: string): CompileCommandsCheck {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `not valid JSON (${(err as Error).message})`, index: null };
  }
  if (!Array.isArray(data))
    return { ok: false, reason: "not a JSON array of entries", index: null };
  if (data.length === 0) return { ok: false, reason: "the array has no entries", index: null };
  for (const [index, entry] of data.entries()) {
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
      return { ok: false, reason: `entry ${index} is not an object`, index };
    }
    const e = entry as Record<string, unknown>;
    if (!isString(e.directory))
      return { ok: false, reason: `entry ${index} has no "directory" string`, index };
    if (!isString(e.file))
      return { ok: false, reason: `entry ${index} has no "file" string`, index };
    const hasCommand = isString(e.command);
    const hasArguments =
      Array.isArray(e.arguments) && e.arguments.length > 0 && e.arguments.every(isString);
    if (!hasCommand && !hasArguments) {
      return {
        ok: false,
        reason: `entry ${index} (${e.file}) has neither a "command" string nor an "arguments" list of strings`,
        index,
      };
    }
  }
  return { ok: true, entries: data.length };
}

/**
 * The files a compile database names, as absolute normalized paths (`file` against its
 * entry's `directory`, a relative `directory` against the database's own `dbDir`); null
 * when the text is no array of entries.
 */
export function compileDatabaseFiles(text: string, dbDir: string): Set<string> | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(data)) return null;
  const files = new Set<string>();
  for (const entry of data as { directory?: unknown; file?: unknown }[]) {
    if (!isString(entry?.directory) || !isString(entry.file)) continue;
    files.add(resolve(dbDir, entry.directory, entry.file));
  }
  return files;
}
