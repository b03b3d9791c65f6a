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
  readonly changes = new StateChanges();
  private current: SessionState = "not_started";
  private lives = 0;
  private started: number | undefined;
  private readied: number | undefined;
  private exit: LastExit | undefined;
  private error: ErrorEnvelope | undefined;
  /** a readiness failure (an unhealthy load) that waiters for ready get */
  private loadFailure: BridgeError | undefined;
  /** the server broke the protocol: pending and new requests fail at once */
  private protocolBroken = false;
  /** the bridge is exiting (SPEC §9.2): nothing starts or waits any more */
  private exiting = false;
  /** aborted when the bridge begins to exit: a version check in progress is killed */
  private readonly exitSignal = new AbortController();
  private inflightCalls = 0;
  private lastUse = 0;

  constructor(readonly label: SessionLabel) {}

  get state(): SessionState {
    return this.current;
  }

  /** Increments on every start: handles from an earlier life are foreign (SPEC §7.3). */
  get epoch(): number {
    return this.lives;
  }

  get startedAt(): number | undefined {
    return this.started;
  }

  get readyAt(): number | undefined {
    return this.readied;
  }

  get lastExit(): LastExit | undefined {
    return this.exit;
  }

  get lastError(): ErrorEnvelope | undefined {
    return this.error;
  }

  get readyFailure(): BridgeError | undefined {
    return this.loadFailure;
  }

  get broken(): boolean {
    return this.protocolBroken;
  }

  get closing(): boolean {
    return this.exiting;
  }

  /** Aborts when the bridge begins to exit (`close`). */
  get closingSignal(): AbortSignal {
    return this.exitSignal.signal;
  }

  get inflight(): number {
    return this.inflightCalls;
  }

  get lastUsed(): number {
    return this.lastUse;
  }

  /** Live = holding (or about to hold) a process; counts against max_sessions. */
  isLive(): boolean {
    return this.current !== "not_started" && this.current !== "dead";
  }

  isIdle(): boolean {
    return this.inflightCalls === 0;
  }

  /** Waiters are woken by the caller (`changes.notify()`), once its whole step is done. */
  moveTo(next: SessionState): void {
    if (!canMove(this.current, next)) {
      throw new Error(`${this.label.key}: no transition from ${this.current} to ${next}`);
    }
    this.current = next;
    if (next === "ready") this.readied = Date.now();
  }

  /** A new server life: a fresh epoch, nothing left over from the last one but its exit. */
  beginLife(): void {
    this.moveTo("starting");
    this.lives += 1;
    this.started = Date.now();
    this.readied = undefined;
    this.error = undefined;
    this.loadFailure = undefined;
    this.protocolBroken = false;
  }

  recordExit(exit: LastExit): void {
    this.exit = exit;
  }

  recordError(error: ErrorEnvelope): void {
    this.error = error;
  }

  /** The server reported an unhealthy load: waiters for ready fail with `err`. */
  failLoad(err: BridgeError): void {
    this.loadFailure = err;
    this.error = err.toEnvelope();
  }

  /** The server wrote something that is not LSP (SPEC §8). */
  markBroken(err: BridgeError): void {
    this.protocolBroken = true;
    this.error = err.toEnvelope();
  }

  /** The bridge is exiting: a pending start is abandoned, waits end, nothing starts again. */
  close(): void {
    this.exiting = true;
    this.exitSignal.abort();
  }

  /** A call starts or ends using the session; `seq` orders uses for LRU eviction. */
  beginUse(seq: number): void {
    this.inflightCalls += 1;
    this.lastUse = seq;
  }

  endUse(seq: number): void {
    this.inflightCalls -= 1;
    this.lastUse = seq;
  }

  deadError(): BridgeError {
    return deadError(this.label, this.exit, this.error);
  }
}
