/**
 * One language-server session keyed by (workspace, server) (SPEC §9.1): the object tools
 * and the manager hold. It composes one module per concern:
 *   lifecycle.ts         the state machine, epochs, last exit and error, use counters
 *   server-process.ts    starting and ending the server; stop.ts holds the stop ladder
 *   readiness-driver.ts  start-up until ready (SPEC §3.3), the probe, the hold on re-indexing
 *   requests.ts          bounded requests, cancellation, ContentModified retries
 *   documents.ts         what the server holds open, following the disk (SPEC §5)
 * Tools never talk to the connection: `request` waits for readiness, bounds the call and
 * maps failures to SPEC §4.6 codes. Nothing outside changes the session's state but
 * through the methods here.
 */
import type { Registration, ServerCapabilities } from "vscode-languageserver-protocol";
import { languageOfFile } from "../config/server-files.ts";
import type { BridgeConfig, ServerConfig } from "../config/types.ts";
import type { BridgeError, ErrorEnvelope } from "../errors.ts";
import type { ContainmentInfo } from "../process/pid-namespace.ts";
import type { LineModel } from "../text/line-model.ts";
import { type LineMessage, linesFor } from "../text/line-rule.ts";
import type { PositionEncoding } from "../text/positions.ts";
import type { Program } from "../workspace/program.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { CallLock } from "./call-lock.ts";
import { SessionContext } from "./context.ts";
import type { DiagnosticStore } from "./diagnostics.ts";
import { type DiskContent, Documents, type OpenDocument } from "./documents.ts";
import type { SessionHooks } from "./hooks.ts";
import type { LastExit, Lifecycle, SessionState } from "./lifecycle.ts";
import type { ProgressTracker } from "./progress.ts";
import type { Readiness } from "./readiness.ts";
import { ReadinessDriver, type WaitContext } from "./readiness-driver.ts";
import { type BarrierRequest, Requests } from "./requests.ts";
import type { LspRequest } from "./rpc.ts";
import { offers } from "./server-capabilities.ts";
import { ServerProcess } from "./server-process.ts";
import type { SessionLabel } from "./session-errors.ts";
import { lacksCapability } from "./session-errors.ts";
import type { SettleRule } from "./settle/rule.ts";
import type { Runs } from "./settle/runs.ts";
import type { WarmupOutcome } from "./warmup.ts";

export { sessionKey } from "./context.ts";
export type { SessionState } from "./lifecycle.ts";
export type { WaitContext } from "./readiness-driver.ts";

export class Session {
  readonly documents: Documents;
  /** calls side by side, or a preview alone (SPEC §6.2) */
  readonly calls = new CallLock();
  private readonly ctx: SessionContext;
  private readonly driver: ReadinessDriver;
  private readonly requests: Requests;
  private readonly process: ServerProcess;

  constructor(
    workspace: Workspace,
    server: ServerConfig,
    bridge: BridgeConfig,
    hooks: SessionHooks,
    /** the manager's slot under max_sessions (SPEC §9.1); a lone session always gets one */
    admit: (session: Session) => Promise<() => void> = async () => () => {},
  ) {
    const ctx = new SessionContext(workspace, server, bridge, hooks);
    this.ctx = ctx;
    // the parts reach the current connection through `process`, created last
    this.requests = new Requests(
      ctx,
      () => this.process.connection,
      () => ctx.progress.active().length === 0 && this.driver.readiness.status?.quiescent !== false,
    );
    this.documents = new Documents(ctx, {
      notify: (method, params) => this.process.notify(method, params),
      capabilities: () => this.process.capabilities,
      encoding: () => this.process.encoding,
      barrier: (signal) => this.requests.barrier(signal),
      loaded: () => this.driver.readiness.loaded,
    });
    this.driver = new ReadinessDriver(ctx, {
      probe: (method, params) => {
        const conn = this.process.connection;
        return conn ? this.requests.send(conn, method, params, undefined) : undefined;
      },
      openFile: (content) => {
        this.documents.write(content);
      },
      endDead: () => void this.process.stop("dead"),
    });
    this.process = new ServerProcess(ctx, {
      driver: this.driver,
      documents: this.documents,
      requests: this.requests,
      admit: () => admit(this),
    });
  }

  get key(): string {
    return this.ctx.key;
  }
  get label(): SessionLabel {
    return this.ctx.label;
  }
  get workspace(): Workspace {
    return this.ctx.workspace;
  }
  get server(): ServerConfig {
    return this.ctx.server;
  }
  get bridge(): BridgeConfig {
    return this.ctx.bridge;
  }
  get registrations(): Map<string, Registration> {
    return this.ctx.registrations;
  }
  get progress(): ProgressTracker {
    return this.ctx.progress;
  }
  /** when its diagnostics are settled (SPEC §6) */
  get settle(): SettleRule {
    return this.ctx.settle;
  }
  /** the server's diagnostics check runs; null: none */
  get runs(): Runs | null {
    return this.ctx.runs;
  }
  get diagnostics(): DiagnosticStore {
    return this.ctx.diagnostics;
  }
  /** which files its server sees as part of the whole program (SPEC §4.3) */
  get program(): Program {
    return this.ctx.program;
  }
  private get life(): Lifecycle {
    return this.ctx.life;
  }

  // ------------------------------------------------------------ what others read

  get state(): SessionState {
    return this.life.state;
  }
  /** increments on every (re)start: handles from an earlier life are foreign (SPEC §7.3) */
  get epoch(): number {
    return this.life.epoch;
  }
  get startedAt(): number | undefined {
    return this.life.startedAt;
  }
  get readyAt(): number | undefined {
    return this.life.readyAt;
  }
  get lastExit(): LastExit | undefined {
    return this.life.lastExit;
  }
  get lastError(): ErrorEnvelope | undefined {
    return this.life.lastError;
  }
  get inflight(): number {
    return this.life.inflight;
  }
  get lastUsed(): number {
    return this.life.lastUsed;
  }
  get readiness(): Readiness {
    return this.driver.readiness;
  }
  /** what warmup_open opened and skipped in this life (SPEC §3.3) */
  get warmup(): WarmupOutcome | undefined {
    return this.driver.warmupOutcome;
  }
  get capabilities(): ServerCapabilities | undefined {
    return this.process.capabilities;
  }
  get encoding(): PositionEncoding {
    return this.process.encoding;
  }
  /** where the server breaks lines in the positions it reads (SPEC §5) */
  get lineModel(): LineModel {
    return this.ctx.lines;
  }
  /** … and in the positions of its other answers */
  get answerLineModel(): LineModel {
    return this.ctx.answerLines;
  }
  /** The models the positions of `message` may count in (SPEC §5, text/line-rule.ts). */
  /** Whether a workspace-relative file is one of the server's languages' (SPEC §7.4). */
  serves(rel: string): boolean {
    return languageOfFile(this.server, rel) !== undefined;
  }

  linesFor(message: LineMessage): readonly LineModel[] {
    return linesFor(this.ctx.serverLines, message);
  }
  get observedVersion(): string | undefined {
    return this.process.observedVersion;
  }
  get serverPid(): number | undefined {
    return this.process.serverPid;
  }
  /** the supervisor's pid */
  get pid(): number | undefined {
    return this.process.supervisorPid;
  }
  /** what holds the live tree together (SPEC §9.2); undefined when none runs */
  get containment(): ContainmentInfo | undefined {
    return this.process.containment;
  }

  /** Live = holding (or about to hold) a process; counts against max_sessions. */
  isLive(): boolean {
    return this.life.isLive();
  }
  isIdle(): boolean {
    return this.life.isIdle();
  }
  deadError(): BridgeError {
    return this.life.deadError();
  }

  /** Whether the server offers a method, statically or by dynamic registration. */
  offers(provider: keyof ServerCapabilities, method: string): boolean {
    return offers(this.process.capabilities, this.registrations, provider, method);
  }

  requireCapability(provider: keyof ServerCapabilities, method: string): void {
    if (!this.offers(provider, method)) throw lacksCapability(this.server.name, method);
  }

  /** Whether a running server holds `abs` open (it must follow a write, SPEC §7.4). */
  holdsOpen(abs: string): boolean {
    const running = this.life.state === "ready" || this.life.state === "waiting_ready";
    return running && this.documents.byPath(abs) !== undefined;
  }

  // ------------------------------------------------------------ what others do

  /** A call starts or ends using the session (busy sessions are never evicted). */
  beginUse(seq: number): void {
    this.life.beginUse(seq);
  }
  endUse(seq: number): void {
    this.life.endUse(seq);
  }

  /** Start if needed and wait until ready (bounded by ready_timeout_ms). */
  async ensureReady(ctx: WaitContext = {}): Promise<void> {
    await this.process.ensureStarted();
    await this.driver.waitReady(ctx);
  }

  /**
   * A semantic request (`HoverRequest.type`…): ready, not held by re-indexing, bounded,
   * ContentModified retried.
   */
  async request<P, R>(request: LspRequest<P, R>, params: P, wait: WaitContext = {}): Promise<R> {
    await this.ensureReady(wait);
    await this.driver.holdForSemantic(wait);
    return this.requests.call(request, params, wait.signal);
  }

  /** Wait on session state (diagnostics settle), bounded by request_timeout_ms. */
  waitUntil<T>(check: () => T | undefined, what: string, signal?: AbortSignal): Promise<T> {
    return this.ctx.waitUntil(check, what, signal);
  }

  /**
   * Make the server's copy of a file equal to content just read from disk (SPEC §5):
   * didOpen, or didChange + didSave (the applier's resync, SPEC §7.4).
   */
  syncDocument(content: DiskContent): OpenDocument {
    return this.documents.write(content).doc;
  }

  /** Resolves once the server has handled every notification sent before it (SPEC §5.3). */
  barrier(signal?: AbortSignal, via?: BarrierRequest): Promise<void> {
    return this.requests.barrier(signal, via);
  }

  /**
   * The bridge is exiting (SPEC §9.2): a start in progress is abandoned at once (a server
   * that never answers `initialize` does not hold the exit), calls waiting on the session
   * fail, the tree is stopped, and the session never starts again.
   */
  shutdown(deadline?: number): Promise<void> {
    this.life.close();
    this.life.changes.notify();
    return this.process.stop("not_started", deadline);
  }

  /** Stop the tree (SPEC §9.2); afterwards not_started (eviction, restart) or dead. */
  stop(next: "not_started" | "dead" = "not_started"): Promise<void> {
    return this.process.stop(next);
  }

  /** Restarts for `restart_on` so far, and the last reason (session_status). */
  get restarts(): { count: number; last: string | undefined } {
    return this.ctx.restarts;
  }

  /** A file the server does not reload changed (`restart_on`): stop, to start afresh. */
  async restartFor(reason: string): Promise<void> {
    this.ctx.restarts.count += 1;
    this.ctx.restarts.last = reason;
    await this.reset();
  }

  /** session_restart: stop whatever is there, dead or alive; afterwards not_started. */
  async reset(): Promise<void> {
    await this.process.stop("not_started");
    // a stop to dead already under way (an unhealthy load) ends dead: revive explicitly
    if (this.life.state === "dead") this.life.moveTo("not_started");
  }
}
