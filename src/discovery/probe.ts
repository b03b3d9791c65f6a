/**
 * Looking for one preset's binary (SPEC §2.1) on the search path and running its version
 * command; one whose version command fails or names another server does not count.
 */
import type { Preset } from "../config/presets.ts";
import type { ServerConfig } from "../config/types.ts";
import { log } from "../log.ts";
import { readServerVersion } from "../process/version-pin.ts";
import type { Found, PlannedProbe, ProbeOutcome } from "./choose.ts";

type Attempt = { found: Found } | { why: string };

async function tryBinary(
  preset: Preset,
  command: string,
  cwd: string,
  signal: AbortSignal | undefined,
): Promise<Attempt> {
  const versionCommand = preset.versionCommand ? preset.versionCommand(command) : null;
  if (preset.versionCommand && versionCommand === null) {
    return { why: `${command} has no version command beside it` };
  }
  const probe = {
    ...preset.server,
    name: preset.name,
    command,
    version: "",
    version_command: versionCommand,
  } as ServerConfig;
  try {
    const version = await readServerVersion(probe, cwd, undefined, signal);
    if (preset.versionPattern && !preset.versionPattern.test(version)) {
      return { why: `${command} prints "${version}", which is not ${preset.name}` };
    }
    return { found: { command, version, versionCommand } };
  } catch (err) {
    return { why: `${command}: ${(err as Error).message}` };
  }
}

/** `searchPath` is PATH-style: the workspace's bin directories first, then the user's PATH. */
export async function probePreset(
  planned: PlannedProbe,
  searchPath: string,
  cwd: string,
  signal?: AbortSignal,
): Promise<ProbeOutcome> {
  const { preset } = planned;
  const commands =
    planned.command !== undefined
      ? [planned.command]
      : preset.binaries
          .map((bin) => Bun.which(bin, { PATH: searchPath }))
          .filter((c): c is string => c !== null);
  if (commands.length === 0) {
    const names = preset.binaries.map((b) => `\`${b}\``).join(" or ");
    return { missing: `${names} not found in node_modules/.bin or on PATH` };
  }
  const whys: string[] = [];
  for (const command of commands) {
    const attempt = await tryBinary(preset, command, cwd, signal);
    if ("found" in attempt) return attempt;
    log.debug(`discover: ${preset.name}: ${attempt.why}`);
    whys.push(attempt.why);
  }
  return { missing: whys.join("; ") };
}
