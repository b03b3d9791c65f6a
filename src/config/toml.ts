/**
 * Validated configuration back in TOML terms (SPEC §3): null keys left out (TOML has none),
 * and `version_args` beside a `version_command` (giving both is ConfigInvalid).
 */
import type { ServerConfig } from "./types.ts";

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (v !== null) out[key] = withoutNulls(v);
  return out;
}

/** A `[[server]]` table whose validation gives `server` back. */
export function serverTable(server: ServerConfig): Record<string, unknown> {
  const table = withoutNulls(server) as Record<string, unknown>;
  if (server.version_command !== null) delete table.version_args;
  return table;
}
