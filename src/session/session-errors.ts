/** The typed errors a session reports (SPEC §4.6), built in one place. */
import type { ResponseError } from "vscode-languageserver-protocol";
import { BridgeError, type ErrorEnvelope, toEnvelope } from "../errors.ts";
import type { ServerStatus } from "./readiness.ts";

export interface SessionLabel {
  key: string;
  workspace: string;
  server: string;
}

export function cancelledError(): BridgeError {
  return new BridgeError("Cancelled", "the request was cancelled by the client");
}

/** The bridge is exiting (its client closed stdin, SPEC §9.2): nothing starts or waits any more. */
export function shuttingDownError(s: SessionLabel): BridgeError {
  return new BridgeError("Cancelled", `${s.key}: the bridge is shutting down`, {
    hint: "the MCP client closed the connection; start a new bridge",
    details: { workspace: s.workspace, server: s.server },
  });
}

/** `working`: the server shows it is at work; only then is waiting longer a way out (§3.3). */
export function readyTimeoutError(
  s: SessionLabel,
  timeoutMs: number,
  pending: string[],
  working: boolean,
): BridgeError {
  return new BridgeError("ReadyTimeout", `${s.key} not ready after ${timeoutMs} ms`, {
    hint: working
      ? "the server is still loading; call again to keep waiting (session_status shows its progress)"
      : `the server has said nothing that would end the wait for ${pending.join(", ") || "readiness"}: check its [server.ready] conditions and its stderr in session_status, then session_restart`,
    details: { workspace: s.workspace, server: s.server, pending },
  });
}

/** A readiness condition that can never hold in this server life (SPEC §3.3). */
export function neverReadyError(s: SessionLabel, missing: string): BridgeError {
  return new BridgeError("ServerInitFailed", `${s.server} cannot become ready: ${missing}`, {
    hint: "add such a file to the workspace, or change the server's [server.ready] conditions; then session_restart",
    details: { workspace: s.workspace, server: s.server, missing },
  });
}

/** Codes of a start that failed: restarting helps only once the setup is fixed. */
const START_FAILURES = new Set([
  "ServerNotFound",
  "ServerVersionMismatch",
  "ServerStartFailed",
  "ServerInitFailed",
]);

export function stateTimeoutError(s: SessionLabel, timeoutMs: number, what: string): BridgeError {
  const message = `${s.key}: ${what} did not happen within ${timeoutMs} ms`;
  return new BridgeError("RequestTimeout", message, {
    hint: "the server did not report this state; check the server's diagnostics_settle rule in the config",
    details: { workspace: s.workspace, server: s.server, waiting_for: what },
  });
}

export function initFailedError(s: SessionLabel, err: unknown): BridgeError {
  const e = toEnvelope(err);
  return new BridgeError("ServerInitFailed", `${s.key}: initialize failed: ${e.message}`, {
    hint: "check the server's args and initialization_options; session_status shows its stderr",
    details: { cause: e.code, ...(e.details ?? {}) },
  });
}

export function unhealthyLoadError(
  s: SessionLabel,
  message: string,
  status: ServerStatus | undefined,
): BridgeError {
  return new BridgeError("ServerInitFailed", `${s.server} reported an unhealthy load: ${message}`, {
    hint: "fix what its message names in the workspace (a missing manifest, a broken build file) and call session_restart",
    details: { workspace: s.workspace, server: s.server, health: status },
  });
}

export function protocolError(s: SessionLabel, message: string): BridgeError {
  return new BridgeError("ServerError", `${s.server} broke the LSP protocol: ${message}`, {
    hint: "check the server's args (it must speak LSP on stdout); session_restart to try again",
    details: { workspace: s.workspace, server: s.server },
  });
}

/** An answer that is not what the method returns (servers are untrusted, SPEC §8). */
export function malformedAnswerError(
  server: string,
  method: string,
  expected: string,
): BridgeError {
  return new BridgeError("ServerError", `${server} answered ${method} with no ${expected}`, {
    hint: "the language server's answer was malformed; try another position, or session_restart",
    details: { server, method },
  });
}

export function deadError(
  s: SessionLabel,
  exit: { code: number | null; signal: string | null; stderr_tail: string } | undefined,
  lastError: ErrorEnvelope | undefined,
): BridgeError {
  // why, when the session knows it (a broken protocol, a failed start): in the message too
  const why = lastError ? `: ${lastError.message}` : "";
  const restart = `session_restart with workspace "${s.workspace}" and server "${s.server}"`;
  const failed = lastError !== undefined && START_FAILURES.has(lastError.code);
  return new BridgeError("SessionDead", `${s.key}: the language server is not running${why}`, {
    hint: failed
      ? `it failed to start (${lastError.code}): ${lastError.hint ?? "see details.error"}; once that is fixed, call ${restart}`
      : `call ${restart}`,
    details: {
      workspace: s.workspace,
      server: s.server,
      exit_code: exit?.code ?? null,
      signal: exit?.signal ?? null,
      stderr_tail: exit?.stderr_tail ?? "",
      ...(lastError ? { error: lastError } : {}),
    },
  });
}

/** Any failure as a BridgeError, keeping code, hint and details. */
export function asBridgeError(err: unknown): BridgeError {
  if (err instanceof BridgeError) return err;
  const e = toEnvelope(err);
  return new BridgeError(e.code, e.message, {
    ...(e.hint ? { hint: e.hint } : {}),
    ...(e.details ? { details: e.details } : {}),
  });
}

/** Every slot is held (SPEC §9.1): `busy` ones, or `held` ones its standing may not evict. */
export function sessionLimitError(
  max: number,
  why: { busy: string[]; held: string[]; mode: "call" | "warmup"; tier: string },
): BridgeError {
  const { busy, held, mode } = why;
  if (held.length === 0) {
    return new BridgeError("SessionLimit", `all ${max} sessions are busy`, {
      hint: "retry when a running call finishes, or raise bridge.max_sessions (at most 4)",
      details: { max_sessions: max, busy },
    });
  }
  const message =
    mode === "warmup"
      ? `not started: the ${max} slots hold sessions ranked before it (${held.join(", ")})`
      : `all ${max} slots are held; the idle ${held.join(", ")} is not stopped for a ${why.tier} server`;
  return new BridgeError("SessionLimit", message, {
    hint:
      mode === "warmup"
        ? "it starts on its first call; session_status {start: true} starts the main servers first"
        : "a data-file server never stops a workspace's main server: raise bridge.max_sessions (at most 4)",
    details: { max_sessions: max, busy, held },
  });
}

export function requestTimeoutError(method: string, timeoutMs: number): BridgeError {
  return new BridgeError("RequestTimeout", `${method} got no answer within ${timeoutMs} ms`, {
    hint: "the server may be overloaded; retry, or raise bridge.request_timeout_ms",
    details: { method, timeout_ms: timeoutMs },
  });
}

export function requestCancelledError(method: string): BridgeError {
  return new BridgeError("Cancelled", `${method} was cancelled by the client`);
}

/** An LSP error answer as ServerError, keeping the LSP code (SPEC §4.6). */
export function serverError(method: string, err: ResponseError<unknown>): BridgeError {
  return new BridgeError("ServerError", `${method} failed: ${err.message}`, {
    hint: "the language server rejected the request; check the position and the file",
    details: { method, lsp_code: err.code, lsp_message: err.message },
  });
}

export function lacksCapability(server: string, method: string): BridgeError {
  return new BridgeError("ServerLacksCapability", `${server} does not offer ${method}`, {
    hint: "another configured server may offer it (pass `server`), or the tool does not apply here",
    details: { server, method },
  });
}

export function unknownServerError(workspace: string, server: string): BridgeError {
  const message = `server "${server}" is not configured for workspace "${workspace}"`;
  return new BridgeError("UnknownServer", message, {
    hint: "session_status lists the configured (workspace, server) pairs",
    details: { workspace, server },
  });
}
