/**
 * A session's state machine (SPEC §9.1), what each server life leaves behind and the use
 * counters eviction reads. Only the methods here write its fields; waiters re-check on
 * `changes`.
 */
import type { BridgeError, ErrorEnvelope } from "../errors.ts";
import type { ExitInfo } from "../process/launch.ts";
import { deadError, type SessionLabel } from "./session-errors.ts";
import { StateChanges } from "./state-changes.ts";

export type SessionState =
  | "not_started"
  | "starting"
  | "initializing"
  | "waiting_ready"
  | "ready"
  | "stopping"
  | "dead";

/** Every allowed move besides staying (SPEC §9.1, §9.2): dead returns only explicitly. */
export const TRANSITIONS: Readonly<Record<SessionState, readonly SessionState[]>> = {
  not_started: ["starting"],
  // back to not_started when nothing ran (version pin, prerequisites): the next call retries;
  // stopping when the server runs but connecting to it failed
  starting: ["initializing", "not_started", "stopping", "dead"],
  initializing: ["waiting_ready", "stopping", "dead"],
  waiting_ready: ["ready", "stopping", "dead"],
  ready: ["stopping", "dead"],
  stopping: ["not_started", "dead"],
  dead: ["not_started"],
};

export function canMove(from: SessionState, to: SessionState): boolean {
  return from === to || TRANSITIONS[from].includes(to);
}

/** How the last server life ended, with the tail of its stderr (SPEC §10). */
export interface LastExit extends ExitInfo {
  stderr_tail: string;
}

export class Lifecycle {
  // written only by the methods below
  readonly changes = new StateChanges();
  state: SessionState = "not_started";
  /** increments on every start: handles from an earlier life are foreign (SPEC §7.3) */
  epoch = 0;
  startedAt: number | undefined;
  readyAt: number | undefined;
  lastExit: LastExit | undefined;
  lastError: ErrorEnvelope | undefined;
  /** a readiness failure (an unhealthy load) that waiters for ready get */
  readyFailure: BridgeError | undefined;
  /** the server broke the protocol: pending and new requests fail at once */
  broken = false;
  /** the bridge is exiting (SPEC §9.2): nothing starts or waits any more */
  closing = false;
  /** aborted when the bridge begins to exit: a version check in progress is killed */
  private readonly exitSignal = new AbortController();
  readonly closingSignal = this.exitSignal.signal;
  inflight = 0;
  lastUsed = 0;

  constructor(readonly label: SessionLabel) {}

  /** Live = holding (or about to hold) a process; counts against max_sessions. */
  isLive(): boolean {
    return this.state !== "not_started" && this.state !== "dead";
  }

  isIdle(): boolean {
    return this.inflight === 0;
  }

  /** Waiters are woken by the caller (`changes.notify()`), once its whole step is done. */
  moveTo(next: SessionState): void {
    if (!canMove(this.state, next)) {
      throw new Error(`${this.label.key}: no transition from ${this.state} to ${next}`);
    }
    this.state = next;
    if (next === "ready") this.readyAt = Date.now();
  }

  /** A new server life: a fresh epoch, nothing left over from the last one but its exit. */
  beginLife(): void {
    this.moveTo("starting");
    this.epoch += 1;
    this.startedAt = Date.now();
    this.readyAt = undefined;
    this.lastError = undefined;
    this.readyFailure = undefined;
    this.broken = false;
  }

  recordExit(exit: LastExit): void {
    this.lastExit = exit;
  }

  recordError(error: ErrorEnvelope): void {
    this.lastError = error;
  }

  /** The server reported an unhealthy load: waiters for ready fail with `err`. */
  failLoad(err: BridgeError): void {
    this.readyFailure = err;
    this.lastError = err.toEnvelope();
  }

  /** The server wrote something that is not LSP (SPEC §8). */
  markBroken(err: BridgeError): void {
    this.broken = true;
    this.lastError = err.toEnvelope();
  }

  /** The bridge is exiting: a pending start is abandoned, waits end, nothing starts again. */
  close(): void {
    this.closing = true;
    this.exitSignal.abort();
  }

  /** A call starts or ends using the session; `seq` orders uses for LRU eviction. */
  beginUse(seq: number): void {
    this.inflight += 1;
    this.lastUsed = seq;
  }

  endUse(seq: number): void {
    this.inflight -= 1;
    this.lastUsed = seq;
  }

  deadError(): BridgeError {
    return deadError(this.label, this.lastExit, this.lastError);
  }
}
