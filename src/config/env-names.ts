/**
 * Environment variable names the configuration may not hand to a child (SPEC §3
 * "Environment", §9.1). Data and pure checks: the schema refuses such names in `env` and
 * `env_passthrough`, and process/env.ts strips the forbidden ones from every child's
 * environment.
 */

/**
 * Never passed to a child, even when configured: a compiled bridge honours both, and a
 * child that is itself a Bun executable would change behaviour
 * (docs/TOOLCHAIN.md#the-compiled-binary-at-run-time).
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
