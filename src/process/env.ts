/**
 * The sanitized environment every child process gets (SPEC §9.1, §3 "Environment").
 * Nothing from the bridge's own environment reaches a language server unless it is in
 * the fixed minimal set or the server's `env_passthrough`; `env` values win over both.
 */
import { FORBIDDEN_ENV_NAMES } from "../config/env-names.ts";
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
