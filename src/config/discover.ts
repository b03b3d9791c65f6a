/**
 * Zero-config mode and `theodolite init` (SPEC §2). Filled in by the ship
 * work; until then both say plainly that a config file is needed.
 */
import { BridgeError } from "../errors.ts";
import type { Config } from "./types.ts";

export async function zeroConfig(_cwd: string): Promise<Config> {
  throw new BridgeError("ConfigInvalid", "no configuration given", {
    hint: "pass --config FILE or set THEODOLITE_CONFIG (see bridge.toml.example)",
  });
}

export async function runInit(_dir: string): Promise<string> {
  throw new BridgeError("ConfigInvalid", "init is not available yet", {
    hint: "copy bridge.toml.example and adjust it",
  });
}
