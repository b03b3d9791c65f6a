/**
 * Which files a server serves (SPEC §4.5), pure: by `filenames`, then `extensions`, then for
 * a file without an extension the `#!` interpreter (`shebangs`). The tables are parsed from
 * TOML, so a name such as `x.constructor` must not find what every object inherits.
 */
import { basename, extname } from "node:path";
import type { ServerConfig } from "./types.ts";

type FileTables = Pick<ServerConfig, "extensions"> &
  Partial<Pick<ServerConfig, "filenames" | "shebangs">>;

/** A pattern in which `*` stands for any run of characters and nothing else is special. */
export function starPattern(pattern: string, flags = ""): RegExp {
  const parts = pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join(".*")}$`, flags);
}

/** A `filenames` key as a matcher (starPattern). */
export function nameMatches(pattern: string, name: string): boolean {
  return pattern.includes("*") ? starPattern(pattern).test(name) : pattern === name;
}

function byName(server: FileTables, file: string): string | undefined {
  const table = server.filenames ?? {};
  const name = basename(file);
  if (Object.hasOwn(table, name)) return table[name];
  const pattern = Object.keys(table).find((p) => p.includes("*") && nameMatches(p, name));
  return pattern === undefined ? undefined : table[pattern];
}

/** The interpreter a `#!` line names (`#!/usr/bin/env -S python3 -u` → `python3`). */
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

/** The languageId the server's tables give `file` (`interpreter`: its `#!`), or undefined. */
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
