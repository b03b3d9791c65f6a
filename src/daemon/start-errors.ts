/**
 * What starting a shared bridge refuses (SPEC §2.2), built in one place: `--daemon`'s
 * usage, a configuration that changed while it started, a socket directory that is not
 * the user's private one, and the error a starting daemon announced, as its client
 * throws it again.
 */
import { BridgeError, type ErrorEnvelope } from "../errors.ts";

export function daemonUsage(): BridgeError {
  return new BridgeError("InvalidArgument", "usage: theodolite --daemon SOCKET [--config FILE]");
}

/** The configuration read at the start names another socket than the one the daemon was given. */
export function configChangedAtStart(): BridgeError {
  return new BridgeError("ConfigInvalid", "the configuration changed while the bridge started", {
    hint: "start the client again",
  });
}

/** `why`: what is wrong with the directory (socket-dir.ts). */
export function socketDirRefused(dir: string, why: string): BridgeError {
  return new BridgeError("ConfigInvalid", `the shared bridges' directory ${dir} ${why}`, {
    hint: `remove ${dir} (theodolite creates it again, 0700), point XDG_RUNTIME_DIR or TMPDIR elsewhere, or run with --isolated`,
    details: { directory: dir },
  });
}

/** The error a daemon announced instead of listening, as it said it. */
export function announcedError(env: ErrorEnvelope): BridgeError {
  return new BridgeError(env.code, env.message, {
    ...(env.hint !== undefined ? { hint: env.hint } : {}),
    ...(env.details !== undefined ? { details: env.details } : {}),
  });
}
