/**
 * What a server reads outside the root because of who runs it (SPEC §5.3 "dependencies
 * outside the root"): the per-user configuration of the programs its session runs — the
 * server itself and the tools it runs (`go`, `cargo`) — where those programs keep it by
 * convention: `$XDG_CONFIG_HOME/<program>` (else `~/.config/<program>`: clangd's
 * config.yaml, go's env file) and `$<PROGRAM>_HOME` (else `~/.<program>`: cargo's
 * config.toml) — the configuration files at their top, by name: what lies below is caches
 * and state the programs write as they run (go's telemetry, cargo's registry). Pure: the
 * caller passes the server's environment and watches what this names.
 */
import { isAbsolute, join } from "node:path";
import type { OutsideDependency } from "./outside-deps.ts";

/** Files that configure a program, by name; the rest of its directory is its own state. */
const CONFIG_NAMES = /^(?:config|env|.*\.(?:toml|ya?ml|jsonc?|ini|conf|cfg))$/;

/** A program's name as a directory name: letters, digits, `-`, `_`, `.` (never `..`). */
const PROGRAM = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function userConfiguration(
  programs: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): OutsideDependency[] {
  const home = absolute(env.HOME);
  const xdg =
    absolute(env.XDG_CONFIG_HOME) ?? (home === undefined ? undefined : join(home, ".config"));
  const out: OutsideDependency[] = [];
  for (const program of new Set(programs)) {
    if (!PROGRAM.test(program)) continue;
    const source = `${program}'s user configuration`;
    if (xdg !== undefined) {
      out.push({ path: join(xdg, program), kind: "entries", source, names: CONFIG_NAMES });
    }
    const variable = `${program.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_HOME`;
    const own =
      absolute(env[variable]) ?? (home === undefined ? undefined : join(home, `.${program}`));
    if (own !== undefined) out.push({ path: own, kind: "entries", source, names: CONFIG_NAMES });
  }
  return out;
}

function absolute(path: string | undefined): string | undefined {
  return path !== undefined && isAbsolute(path) ? path : undefined;
}
