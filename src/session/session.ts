/**
 * One language-server session keyed by (workspace, server) (SPEC §9.1): the SessionContext
 * its parts share, and the parts as plain readonly fields. Where its state changes:
 *   life                server-process.ts, readiness-driver.ts; use counters here
 *   process             connection, capabilities, pids of this life: server-process.ts
 *   driver              readiness and warm-up, made anew at each start
 *   documents           open documents, `disk`, `saves`, `republish`: documents.ts
 *   progress, diagnostics, registrations  what the server sends, cleared at each start
 * Tools never talk to the connection: `request` waits for readiness, bounds the call and
 * maps failures to SPEC §4.6 codes.
 */
import type { ServerCapabilities } from "vscode-languageserver-protocol";
import { languageOfFile } from "../config/server-files.ts";
import type { BridgeConfig, ServerConfig } from "../config/types.ts";
import type { LineModel } from "../text/line-model.ts";
import { type LineMessage, linesFor } from "../text/line-rule.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { CallLock } from "./call-lock.ts";
import type { ChangedFiles } from "./changed-files.ts";
import { SessionContext } from "./context.ts";
import type { DiskChanges } from "./disk-changes.ts";
import { Documents } from "./documents.ts";
import type { SessionHooks } from "./hooks.ts";
import { ReadinessDriver, type WaitContext } from "./readiness-driver.ts";
import type { Republisher } from "./republish.ts";
import { type BarrierRequest, Requests } from "./requests.ts";
import type { LspRequest } from "./rpc.ts";
import type { Saves } from "./saves.ts";
import { offers } from "./server-capabilities.ts";
import { ServerProcess } from "./server-process.ts";
import { lacksCapability } from "./session-errors.ts";

export { sessionKey } from "./context.ts";
export type { SessionState } from "./lifecycle.ts";
export type { WaitContext } from "./readiness-driver.ts";

export class Session extends SessionContext {
  // the parts that hold its state (docs/ARCHITECTURE.md, "Where state lives")
  readonly process: ServerProcess;
  readonly driver: ReadinessDriver;
  readonly documents: Documents;
  /** the documents' parts callers read: what changed on disk, the didSaves, republishes */
  readonly disk: DiskChanges;
  readonly changedFiles: ChangedFiles;
  readonly saves: Saves;
  readonly republish: Republisher;
  /** calls side by side, or a preview alone (SPEC §6.2) */
  readonly calls = new CallLock();
  private readonly requests: Requests;

  constructor(
    workspace: Workspace,
    server: ServerConfig,
    bridge: BridgeConfig,
    hooks: SessionHooks,
    /** the manager's slot under max_sessions (SPEC §9.1); a lone session always gets one */
    admit: (session: Session) => Promise<() => void> = async () => () => {},
  ) {
    super(workspace, server, bridge, hooks);
    // the parts share this context and reach the current connection through `process`
    this.requests = new Requests(
      this,
      () => this.process.connection,
      () =>
        this.progress.active().length === 0 && this.driver.readiness.status?.quiescent !== false,
    );
    this.documents = new Documents(this, {
      notify: (method, params) => this.process.notify(method, params),
      capabilities: () => this.process.capabilities,
      encoding: () => this.process.encoding,
      barrier: (signal) => this.requests.barrier(signal),
      loaded: () => this.driver.readiness.loaded,
    });
    ({ disk: this.disk, saves: this.saves, republish: this.republish } = this.documents);
    this.changedFiles = this.disk.changed;
    this.driver = new ReadinessDriver(this, {
      probe: (method, params) => {
        const conn = this.process.connection;
        return conn ? this.requests.send(conn, method, params, undefined) : undefined;
      },
      openFile: (content) => {
        this.documents.write(content);
      },
      endDead: () => void this.process.stop("dead"),
    });
    this.process = new ServerProcess(this, {
      driver: this.driver,
      documents: this.documents,
      requests: this.requests,
      admit: () => admit(this),
    });
  }

  // ------------------------------------------------------------ what others read

  /** The models the positions of `message` may count in (SPEC §5, text/line-rule.ts). */
  linesFor(message: LineMessage): readonly LineModel[] {
    return linesFor(this.serverLines, message);
  }

  /** Whether a workspace-relative file is one of the server's languages' (SPEC §7.4). */
  serves(rel: string): boolean {
    return languageOfFile(this.server, rel) !== undefined;
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

  /** Start if needed and wait until ready (bounded by ready_timeout_ms). */
  async ensureReady(ctx: WaitContext = {}): Promise<void> {
    await this.process.ensureStarted();
    await this.driver.waitReady(ctx);
  }

  /** A semantic request: ready, not held by re-indexing, bounded, ContentModified retried. */
  async request<P, R>(request: LspRequest<P, R>, params: P, wait: WaitContext = {}): Promise<R> {
    await this.ensureReady(wait);
    await this.driver.holdForSemantic(wait);
    return this.requests.call(request, params, wait.signal);
  }

  /** Resolves once the server has handled every notification sent before it (SPEC §5.3). */
  barrier(signal?: AbortSignal, via?: BarrierRequest): Promise<void> {
    return this.requests.barrier(signal, via);
  }

  /** The bridge is exiting (SPEC §9.2): a start is abandoned, waiters fail, no start again. */
  shutdown(deadline?: number): Promise<void> {
    this.life.close();
    this.life.changes.notify();
    return this.process.stop("not_started", deadline);
  }

  /** A file the server does not reload changed (`restart_on`): stop, to start afresh. */
  async restartFor(reason: string): Promise<void> {
    this.restarts.count += 1;
    this.restarts.last = reason;
    await this.reset();
  }

  /** session_restart: stop whatever is there, dead or alive; afterwards not_started. */
  async reset(): Promise<void> {
    await this.process.stop("not_started");
    // a stop to dead already under way (an unhealthy load) ends dead: revive explicitly
    if (this.life.state === "dead") this.life.moveTo("not_started");
  }
}
