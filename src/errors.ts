/**
 * The stable error codes of SPEC §4.6 and the one error type that carries them.
 * Codes are API: renaming or removing one is a breaking change (docs/CHARTER.md).
 *
 * Each code is documented here, next to its name: when it fires and what the caller
 * should do. SPEC §4.6 carries the same table; a unit test keeps them in step.
 */

export interface ErrorDoc {
  /** when the bridge answers with this code */
  when: string;
  /** what the caller does next */
  action: string;
}

export const ERRORS = {
  ConfigInvalid: {
    when: "bridge.toml (or the command line) was rejected at start or by --check-config",
    action: "fix the key the message names; the bridge does not start until it is valid",
  },
  EnvironmentUnsupported: {
    when: "at start: the machine lacks what the bridge needs (a /proc of its own pid namespace, libc through bun:ffi); the bridge exits 3 before serving",
    action:
      "fix the machine as the hint says (mount /proc; lift the address-space limit or set the variable the hint names)",
  },
  InvalidArgument: {
    when: "the arguments break the tool's input schema or a rule beyond it (both column and symbol, limit outside 1..max_limit, a negative offset, empty query, file and files together)",
    action: "correct the argument the message names; tools/list has the schema",
  },
  UnknownWorkspace: {
    when: "`workspace` names no configured workspace, or it is omitted while several exist",
    action: "pass one of the names in the hint (session_status lists them)",
  },
  UnknownServer: {
    when: "`server` names no server configured for the workspace",
    action: "pass one of the names in the hint, or omit `server` to route by file",
  },
  NoServerForFile: {
    when: "no server of the workspace handles the file's extension for this tool's role",
    action: "use a file of a configured language, or configure a server for it",
  },
  AmbiguousServer: {
    when: "several servers could answer (details.candidates)",
    action: "pass `server` with one of the candidates",
  },
  PathOutsideWorkspace: {
    when: "`file` resolves (after symlinks) outside the workspace root",
    action: "pass a path inside the workspace",
  },
  FileNotFound: {
    when: "`file` does not exist or is not a regular file",
    action: "check the path (workspace-relative)",
  },
  FileTooLarge: {
    when: "the file is over bridge.max_file_bytes",
    action: "the bridge does not read it; pick another file or raise the bound",
  },
  NotUtf8: {
    when: "the file is not valid UTF-8",
    action: "the bridge reads text files only",
  },
  PositionOutOfRange: {
    when: "`line` or `column` is outside the file or splits a character (never clamped)",
    action: "use details.line_count and line_length, or pass `symbol` instead of `column`",
  },
  SymbolNotOnLine: {
    when: "`symbol` does not occur on `line` (or not `occurrence` times)",
    action: "check the line, or drop `line` to find the symbol by name",
  },
  SymbolNotFound: {
    when: "`symbol` without `line` matches no document symbol of the file",
    action:
      "check the name (case-sensitive; nested symbols as a dotted path `Outer.inner`), see document_symbols, or pass `line`",
  },
  AmbiguousSymbol: {
    when: "`symbol` without `line` matches several document symbols (details.candidates)",
    action: "use a dotted path, or pass the `line` of one of the candidates",
  },
  ServerNotFound: {
    when: "the configured server command does not exist or is not executable",
    action: "install it or fix server.command (--check-config shows it)",
  },
  ServerVersionMismatch: {
    when: "the server's version output differs from the pinned `version`",
    action: "re-pin (theodolite init, or update `version`) or install the pinned version",
  },
  ServerStartFailed: {
    when: "the server process could not be started or exited during start-up",
    action: "see details (exit, stderr tail); fix the server setup, then session_restart",
  },
  ServerInitFailed: {
    when: "the LSP initialize handshake failed, or readiness reported an error health",
    action: "see details; fix the workspace or server settings, then session_restart",
  },
  WorkspaceFileMissing: {
    when: "a file the server requires in the workspace is missing (clangd's compile_commands.json)",
    action: "create it as the hint says, then session_restart",
  },
  WorkspaceFileInvalid: {
    when: "the required workspace file exists but is invalid (details: reason, entry)",
    action: "regenerate it as the hint says, then session_restart",
  },
  WorkspaceRefused: {
    when: "zero-config was started in a directory it does not serve: the file system's root, the home or temp directory, or one with no project marker and no source file near the top",
    action:
      "start theodolite in the project's directory (the MCP client's working directory for it), or pass --config",
  },
  ReadyTimeout: {
    when: "the server did not become ready within ready_timeout_ms (details: pending conditions)",
    action:
      "retry only while session_status shows the server at work; otherwise check its readiness conditions",
  },
  SessionDead: {
    when: "the server exited (details: exit code or signal, stderr tail); it is never restarted implicitly",
    action: "call session_restart",
  },
  SessionLimit: {
    when: "max_sessions sessions are busy and none can be evicted",
    action: "retry when a call finishes",
  },
  ServerLacksCapability: {
    when: "the server does not offer the LSP method the tool needs",
    action: "pass another `server` that offers it, or use another tool",
  },
  RequestTimeout: {
    when: "the server did not answer within request_timeout_ms (the request is cancelled)",
    action: "retry, or raise request_timeout_ms",
  },
  ServerError: {
    when: "the server answered with an LSP error (details.lsp_code)",
    action: "check the position and file; the message is the server's",
  },
  Cancelled: {
    when: "the MCP client cancelled the call",
    action: "nothing; call again if still wanted",
  },
  ResultTooLarge: {
    when: "the result is over max_result_bytes; nothing is truncated (details: count, bytes, a summary per file)",
    action: "page with the `limit` the hint gives (it fits), or narrow the request",
  },
  SnapshotUnknown: {
    when: "`since` names a diagnostics snapshot the bridge does not hold (it keeps the last 32, in memory)",
    action: "call diagnostics without `since` for a fresh snapshot",
  },
  UnsupportedMethod: {
    when: "the tool does not exist or is not registered for this client (apply tools, SPEC §7.1)",
    action: "call tools/list for what this client may call",
  },
  GateDenied: {
    when: "the mutation gate refused an apply (details.reason)",
    action:
      "for drift or a used handle, list again; otherwise the bridge is not set up to let this client write",
  },
  PayloadRejected: {
    when: "code_action_apply got anything besides `handle`",
    action: "pass only the handle from code_actions",
  },
  ResourceOperationRejected: {
    when: "the edit would create, rename or delete files",
    action: "the bridge applies text edits only",
  },
  EditInvalid: {
    when: "the edit set failed validation (no file, outside the workspace, overlapping, out of range), or a rename needs more files open than bridge.max_open_documents",
    action: "nothing was written; list actions or preview the rename again",
  },
  EditIncomplete: {
    when: "an apply could not prove its edit set complete for the files on disk (SPEC §7.3): a file changed since the server loaded it could not be opened in it, the server's own definition puts an occurrence outside the rename at the renamed symbol, files changed after code_actions listed the handle, or the changes since the server started are not all known; details.files names the files",
    action:
      "nothing was written; follow the hint: list or rename again, raise bridge.max_open_documents or bridge.max_watches, or session_restart",
  },
  WorkspaceDrift: {
    when: "a target file changed between computing and writing the edit",
    action: "nothing was written; compute the edit again",
  },
  ApplyFailed: {
    when: "a write failed part-way (details: what was restored)",
    action: "check the file system; written files were put back",
  },
  Internal: {
    when: "a bug in theodolite",
    action: "report it with the session_status output",
  },
} as const satisfies Record<string, ErrorDoc>;

export type ErrorCode = keyof typeof ERRORS;

export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** Codes only the command line prints (one JSON line on stderr, then an exit code): never a tool's. */
export const CLI_ONLY_CODES: readonly ErrorCode[] = ["ConfigInvalid", "EnvironmentUnsupported"];

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
