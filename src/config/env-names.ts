/**
 * Environment variable names the configuration may not hand to a child (SPEC §3
 * "Environment", §9.1): the schema refuses them, process/env.ts strips the forbidden ones.
 */
import { starPattern } from "./server-files.ts";

/** Never passed to a child (docs/TOOLCHAIN.md#the-compiled-binary-at-run-time). */
export const FORBIDDEN_ENV_NAMES: readonly string[] = ["BUN_BE_BUN", "BUN_OPTIONS"];

/** SPEC §3: `env_passthrough` names that look like secrets are refused (case-insensitive). */
export const SECRET_NAME_PATTERNS: readonly string[] = [
  "*TOKEN*",
  "*SECRET*",
  "*PASSWORD*",
  "*_KEY",
  "*CREDENTIAL*",
];

const SECRET_REGEXPS = SECRET_NAME_PATTERNS.map((glob) => ({ glob, re: starPattern(glob, "i") }));

/** The first secret pattern `name` matches, or null. */
export function secretPatternMatching(name: string): string | null {
  for (const { glob, re } of SECRET_REGEXPS) if (re.test(name)) return glob;
  return null;
}

export function isForbiddenEnvName(name: string): boolean {
  return FORBIDDEN_ENV_NAMES.includes(name);
}
