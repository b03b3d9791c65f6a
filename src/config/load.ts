/** Reading `bridge.toml` (SPEC §2, §3) as UTF-8 TOML, then `validateConfig`; every failure ConfigInvalid. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parse, TomlError } from "smol-toml";
import { configNotUtf8, configUnreadable, tomlSyntaxError } from "./config-errors.ts";
import type { Config } from "./types.ts";
import { validateConfig } from "./validate.ts";

export const CONFIG_ENV_VAR = "THEODOLITE_CONFIG";

/** SPEC §2: `--config` on the command line wins over `THEODOLITE_CONFIG`; empty means unset. */
export function resolveConfigPath(
  argvPath: string | undefined,
  env: Record<string, string | undefined>,
): string | undefined {
  if (argvPath !== undefined && argvPath !== "") return argvPath;
  const fromEnv = env[CONFIG_ENV_VAR];
  return fromEnv !== undefined && fromEnv !== "" ? fromEnv : undefined;
}

/** Parse TOML text and validate it; `source` names the file in messages. */
export function parseConfigText(text: string, source: string): Config {
  let raw: unknown;
  try {
    // integers beyond 2^53 become bigint, which the schema rejects; `__proto__` keys throw
    raw = parse(text, { integersAsBigInt: "asNeeded", unsafeKeyBehaviour: "throw" });
  } catch (err) {
    if (err instanceof TomlError) {
      const reason = err.message.split("\n")[0]?.replace(/^Invalid TOML document: /, "") ?? "";
      throw tomlSyntaxError(source, err.line, err.column, reason, err.codeblock);
    }
    throw err;
  }
  return validateConfig(raw, source);
}

/** Read, parse and validate a config file. The source in messages is the absolute path. */
export function loadConfigFile(path: string): Config {
  const absolute = resolve(path);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(absolute);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "EIO";
    throw configUnreadable(absolute, code);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw configNotUtf8(absolute);
  }
  return parseConfigText(text, absolute);
}
