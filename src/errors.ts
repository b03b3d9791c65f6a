/**
 * The stable error codes of SPEC §4.6 and the one error type that carries them.
 * Codes are API: renaming or removing one is a breaking change (docs/CHARTER.md).
 */

export const ERROR_CODES = [
  "ConfigInvalid",
  "InvalidArgument",
  "UnknownWorkspace",
  "UnknownServer",
  "NoServerForFile",
  "AmbiguousServer",
  "PathOutsideWorkspace",
  "FileNotFound",
  "FileTooLarge",
  "NotUtf8",
  "PositionOutOfRange",
  "SymbolNotOnLine",
  "ServerNotFound",
  "ServerVersionMismatch",
  "ServerStartFailed",
  "ServerInitFailed",
  "WorkspaceFileMissing",
  "WorkspaceFileInvalid",
  "ReadyTimeout",
  "SessionDead",
  "SessionLimit",
  "ServerLacksCapability",
  "RequestTimeout",
  "ServerError",
  "Cancelled",
  "ResultTooLarge",
  "UnsupportedMethod",
  "GateDenied",
  "PayloadRejected",
  "ResourceOperationRejected",
  "EditInvalid",
  "WorkspaceDrift",
  "ApplyFailed",
  "Internal",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The error envelope of SPEC §4.6: `{code, message, hint?, details?}`. */
export interface ErrorEnvelope {
  code: ErrorCode;
  message: string;
  hint?: string;
  details?: Record<string, unknown>;
}

export class BridgeError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { hint?: string; details?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = "BridgeError";
    this.code = code;
    this.hint = opts.hint;
    this.details = opts.details;
  }

  toEnvelope(): ErrorEnvelope {
    const env: ErrorEnvelope = { code: this.code, message: this.message };
    if (this.hint !== undefined) env.hint = this.hint;
    if (this.details !== undefined) env.details = this.details;
    return env;
  }
}

/** Any thrown value as an envelope; non-bridge errors are bugs (`Internal`). */
export function toEnvelope(err: unknown): ErrorEnvelope {
  if (err instanceof BridgeError) return err.toEnvelope();
  const message = err instanceof Error ? err.message : String(err);
  return {
    code: "Internal",
    message: `internal error: ${message}`,
    hint: "this is a bug in theodolite; please report it with the session_status output",
  };
}

export function isBridgeError(err: unknown, code?: ErrorCode): err is BridgeError {
  return err instanceof BridgeError && (code === undefined || err.code === code);
}
