/**
 * Validated configuration back in TOML terms (SPEC §3): the one mapping that `theodolite
 * init` prints and the tests write. TOML has no null, so a key whose validated value is null
 * is left out (the schema reads an absent key back as null); `version_args` is left out
 * beside a `version_command`, which replaces it (giving both is ConfigInvalid).
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
