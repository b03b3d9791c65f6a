/**
 * How this program re-executes itself as `--supervise` (SPEC §9.2,
 * TOOLCHAIN.md "Compiled-binary runtime facts").
 */
import { isCompiled } from "../version.ts";

/** argv prefix that runs this program again: compiled → [binary]; from source → [bun, main script]. */
export function selfCommand(): string[] {
  return isCompiled() ? [process.execPath] : [process.execPath, Bun.main];
}

/**
 * The environment for a re-executed copy of this program. A compiled binary
 * honours BUN_BE_BUN (it would act as the bun CLI) and BUN_OPTIONS: strip both.
 */
export function reexecEnv(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (key === "BUN_BE_BUN" || key === "BUN_OPTIONS") continue;
    out[key] = value;
  }
  return out;
}
