/**
 * Expected configurations derived from the schema's defaults (src/config/schema.ts), so a
 * test spells out only the keys it is about and a new key is added in the schema alone.
 * The defaults' values themselves are asserted once, literally, in
 * test/unit/config/validate.test.ts ("defaults").
 */
import { BridgeSchema, ServerSchema } from "../../src/config/schema.ts";
import type { BridgeConfig, ReadyConfig, ServerConfig } from "../../src/config/types.ts";

/** The keys a `[[server]]` table must have. */
type Required = Pick<ServerConfig, "name" | "command" | "version" | "languages" | "roles">;

/** `[bridge]` as written with `keys` and defaults for the rest. */
export const bridgeWith = (keys: Partial<BridgeConfig> = {}): BridgeConfig => ({
  ...BridgeSchema.parse({}),
  ...keys,
});

/** `[server.ready]` as written with `keys` and defaults for the rest. */
export const readyWith = (keys: Partial<ReadyConfig> = {}): ReadyConfig => ({
  ...ServerSchema.parse(minimalServer()).ready,
  ...keys,
});

/** A `[[server]]` as validated: the required keys, `keys`, and defaults for the rest. */
export function serverWith(
  required: Required,
  keys: Partial<Omit<ServerConfig, keyof Required>> = {},
): ServerConfig {
  return { ...ServerSchema.parse(required), ...keys };
}

function minimalServer(): Required {
  return { name: "s", command: "/bin/true", version: "1", languages: ["x"], roles: ["semantics"] };
}
