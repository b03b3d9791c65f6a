/**
 * The sanitized environment every child process gets (SPEC §9.1, §3 "Environment").
 * Nothing from the bridge's own environment reaches a language server unless it is in
 * the fixed minimal set or the server's `env_passthrough`; `env` values win over both.
 */
import type { ServerConfig } from "../config/types.ts";

/** Copied from the parent when present: what ordinary tools need to run at all. */
export const MINIMAL_ENV_NAMES: readonly string[] = [
  "PATH",
  "HOME",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TMPDIR",
  "USER",
  "LOGNAME",
  "SHELL",
  "TERM",
  "TZ",
];

/**
 * Never passed to a child, even when configured: a compiled bridge honours both, and a
 * child that is itself a Bun executable would change behaviour (TOOLCHAIN.md).
 */
export const FORBIDDEN_ENV_NAMES: readonly string[] = ["BUN_BE_BUN", "BUN_OPTIONS"];

/**
 * SPEC §3: `env_passthrough` names that look like secrets are refused (case-insensitive
 * globs; `*` matches any run of characters).
 */
export const SECRET_NAME_PATTERNS: readonly string[] = [
  "*TOKEN*",
  "*SECRET*",
  "*PASSWORD*",
  "*_KEY",
  "*CREDENTIAL*",
];

function globToRegExp(glob: string): RegExp {
  const body = glob
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`, "i");
}

const SECRET_REGEXPS = SECRET_NAME_PATTERNS.map((glob) => ({ glob, re: globToRegExp(glob) }));

/** The first secret pattern `name` matches, or null. */
export function secretPatternMatching(name: string): string | null {
  for (const { glob, re } of SECRET_REGEXPS) if (re.test(name)) return glob;
  return null;
}

export function isForbiddenEnvName(name: string): boolean {
  return FORBIDDEN_ENV_NAMES.includes(name);
}

/**
 * Minimal set, then `env_passthrough`, then explicit `env` (explicit values win). Forbidden
 * names are removed last so no source can reintroduce them.
 */
export function sanitizedEnv(
  server: Pick<ServerConfig, "env" | "env_passthrough">,
  parent: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...MINIMAL_ENV_NAMES, ...server.env_passthrough]) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, value] of Object.entries(server.env)) env[name] = value;
  for (const name of FORBIDDEN_ENV_NAMES) delete env[name];
  return env;
}
