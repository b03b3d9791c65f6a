/**
 * What a client of the shared bridge hears when the bridge itself fails it (SPEC §2.2),
 * built here only: the relay and `theodolite call` give the same envelope for the same
 * failure. `details.shared_bridge` says which: `exited` (it closed with the call in
 * flight), `unavailable` (no bridge could be had), `unresponsive` (it does not answer),
 * `full` (it serves as many clients as it may). And the one line a daemon writes on a
 * connection it refuses for its client limit, which only the relay and `call` read.
 */
import { readFileSync } from "node:fs";
import { BridgeError, toEnvelope } from "../errors.ts";

/** The tail of the daemon's log quoted when it failed to start. */
const LOG_TAIL_BYTES = 2000;
/** The key of the line a daemon writes on a connection it refuses (no MCP message has it). */
const REFUSED_KEY = "theodolite_refused";

/** A call in flight when the bridge closed. */
export function bridgeExited(): BridgeError {
  return new BridgeError("SessionDead", "the shared bridge exited while this call was in flight", {
    hint: "call again: the next call starts a new shared bridge (theodolite daemon status lists them)",
    details: { shared_bridge: "exited" },
  });
}

/** A message for which no bridge could be had (its cause may be a command-line code). */
export function bridgeUnavailable(err: unknown): BridgeError {
  const cause = toEnvelope(err);
  return new BridgeError("SessionDead", `no shared bridge could be had: ${cause.message}`, {
    hint: cause.hint ?? "call again",
    details: { shared_bridge: "unavailable", cause: cause.code, ...(cause.details ?? {}) },
  });
}

/** A bridge that accepts connections and answers nothing (stopped, or its event loop hung). */
export function bridgeUnresponsive(pid: number | null, socket: string): BridgeError {
  const who = pid === null ? "the shared bridge" : `the shared bridge (pid ${pid})`;
  return new BridgeError("SessionDead", `${who} does not answer`, {
    hint: "theodolite daemon status marks it; theodolite daemon stop ends it (its servers with it); or run with --isolated for a dedicated bridge",
    details: { shared_bridge: "unresponsive", pid, socket },
  });
}

/** A bridge that serves its most clients already. */
export function bridgeFull(limit: number): BridgeError {
  return new BridgeError(
    "SessionLimit",
    `the shared bridge serves ${limit} clients, its limit; this one was not let in`,
    {
      hint: "call again once another client has ended, or run with --isolated for a dedicated bridge",
      details: { shared_bridge: "full", limit_clients: limit },
    },
  );
}

/** A bridge that did not start, with the tail of its log. */
export function bridgeStartFailed(log: string, why: string): BridgeError {
  let tail = "";
  try {
    tail = readFileSync(log, "utf8").slice(-LOG_TAIL_BYTES);
  } catch {
    // no log: nothing to quote
  }
  return new BridgeError("Internal", `the shared bridge did not start: ${why}`, {
    hint: `see ${log}; or run with --isolated for a dedicated bridge`,
    details: tail === "" ? { log } : { log, log_tail: tail },
  });
}

/** Whether an error is one of the shared bridge's own (a client's answer, not a usage error). */
export function isSharedBridgeError(err: unknown): err is BridgeError {
  return err instanceof BridgeError && typeof err.details?.shared_bridge === "string";
}

/** The line a daemon writes on a connection it refuses for its client limit. */
export function refusedLine(limit: number): string {
  return `${JSON.stringify({ [REFUSED_KEY]: "full", limit_clients: limit })}\n`;
}

/** The refusal a line says, or undefined for any other line (a bridge's first line). */
export function refusalOf(line: Uint8Array): BridgeError | undefined {
  if (line.length > 256) return undefined;
  try {
    const value = JSON.parse(Buffer.from(line).toString("utf8")) as Record<string, unknown>;
    if (value?.[REFUSED_KEY] !== "full") return undefined;
    const limit = value.limit_clients;
    return bridgeFull(typeof limit === "number" ? limit : 0);
  } catch {
    return undefined;
  }
}
