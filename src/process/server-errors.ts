/**
 * What starting a server reports (SPEC §3, §4.6), built in one place: a command that is
 * no executable (`ServerNotFound`), a version output other than the pinned one, a version
 * check that failed or was cancelled, and a supervised start that failed.
 */
import { BridgeError } from "../errors.ts";

/** `problem`: what is wrong with `path` (missing, not executable, …). */
export function serverNotFound(serverName: string, path: string, problem: string): BridgeError {
  return new BridgeError("ServerNotFound", `server ${serverName}: ${path} ${problem}`, {
    hint: `install the server or fix the path for server "${serverName}" in the config (it must be an absolute path to an executable)`,
    details: { server: serverName, command: path },
  });
}

/** The version command `argv` (its first word `command`) did not print a version. */
export function versionCheckFailed(
  serverName: string,
  argv: readonly string[],
  command: string,
  message: string,
  details: Record<string, unknown>,
): BridgeError {
  return new BridgeError("ServerStartFailed", `server ${serverName}: ${message}`, {
    hint: `check that \`${argv.join(" ")}\` runs and prints the version (theodolite --check-config shows it)`,
    details: { server: serverName, command, args: argv.slice(1), ...details },
  });
}

export function versionCheckCancelled(serverName: string, command: string): BridgeError {
  return new BridgeError("Cancelled", `server ${serverName}: the version command was cancelled`, {
    hint: "the bridge is shutting down",
    details: { server: serverName, command },
  });
}

export function versionMismatch(serverName: string, expected: string, actual: string): BridgeError {
  return new BridgeError(
    "ServerVersionMismatch",
    `server ${serverName}: version is ${JSON.stringify(actual)}, config pins ${JSON.stringify(expected)}`,
    {
      hint: `if this binary is the one you want, set version = ${JSON.stringify(actual)} for server "${serverName}" in the config; otherwise restore the pinned binary`,
      details: { server: serverName, expected, actual },
    },
  );
}

/** The supervised server could not be started (launch.ts). */
export function startFailed(
  message: string,
  hint: string,
  details: Record<string, unknown>,
): BridgeError {
  return new BridgeError("ServerStartFailed", message, { hint, details });
}
