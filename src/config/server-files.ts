/**
 * Which files a server serves (SPEC §4.5), pure: by file name first (`filenames`: an exact
 * name or a pattern with `*`, for `Dockerfile` or `CMakeLists.txt`), then by extension
 * (`extensions`), then — for a file without an extension — by the interpreter its `#!` line
 * names (`shebangs`). The tables are plain objects parsed from TOML, so a name such as
 * `x.constructor` or `x.toString` must not find what every object inherits.
 */
import { basename, extname } from "node:path";
import type { ServerConfig } from "./types.ts";

type FileTables = Pick<ServerConfig, "extensions"> &
  Partial<Pick<ServerConfig, "filenames" | "shebangs">>;

/** A `filenames` key as a matcher: `*` stands for any run of characters, nothing else is special. */
export function nameMatches(pattern: string, name: string): boolean {
  if (!pattern.includes("*")) return pattern === name;
  const parts = pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join(".*")}$`).test(name);
}

function byName(server: FileTables, file: string): string | undefined {
  const table = server.filenames ?? {};
  const name = basename(file);
  if (Object.hasOwn(table, name)) return table[name];
  const pattern = Object.keys(table).find((p) => p.includes("*") && nameMatches(p, name));
  return pattern === undefined ? undefined : table[pattern];
}

/**
 * The interpreter a script's first line names: `#!/bin/bash` → `bash`, `#!/usr/bin/env -S
 * python3 -u` → `python3`; undefined when the line is no `#!` line.
 */
export function shebangInterpreter(firstLine: string): string | undefined {
  const m = /^#!\s*(\S+)(.*)$/.exec(firstLine.replace(/\r$/, ""));
  if (!m) return undefined;
  const program = basename(m[1] ?? "");
  if (program !== "env") return program === "" ? undefined : program;
  const words = (m[2] ?? "").trim().split(/\s+/);
  // env's own options (-S, -i, -u NAME) and NAME=value assignments come before the program
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? "";
    if (w === "-u" || w === "--unset") i++;
    else if (w !== "" && !w.startsWith("-") && !w.includes("=")) return basename(w);
  }
  return undefined;
}

/** `python3.11` → `python3.11`, then `python3`… as looked up: exact first, then without version. */
function byInterpreter(server: FileTables, interpreter: string): string | undefined {
  const table = server.shebangs ?? {};
  for (const name of [interpreter, interpreter.replace(/[\d.]+$/, "")]) {
    if (name !== "" && Object.hasOwn(table, name)) return table[name];
  }
  return undefined;
}

/**
 * The languageId the server's tables give `file`, or undefined: not its file. `interpreter`
 * is what the file's `#!` line names, when the caller read it (files without an extension).
 */
export function languageOfFile(
  server: FileTables,
  file: string,
  interpreter?: string,
): string | undefined {
  const named = byName(server, file);
  if (named !== undefined) return named;
  const ext = extname(file).slice(1);
  if (ext.length > 0) {
    return Object.hasOwn(server.extensions, ext) ? server.extensions[ext] : undefined;
  }
  return interpreter === undefined ? undefined : byInterpreter(server, interpreter);
}
