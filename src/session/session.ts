/**
 * One language-server session keyed by (workspace, server): its lifecycle
 * (SPEC §9.1), readiness (SPEC §3.3), documents (SPEC §5) and diagnostics
 * (SPEC §6). Tools never talk to the connection directly; they go through
 * `request`, which waits for readiness, bounds the call and maps failures to
 * SPEC §4.6 codes.
 */

import {
  type InitializeResult,
  type MessageConnection,
  type Registration,
  ResponseError,
  type ServerCapabilities,
} from "vscode-languageserver-protocol";
import { bounded } from "../bounded.ts";
import type { BridgeConfig, ServerConfig, WorkspaceConfig } from "../config/types.ts";
import { BridgeError, type ErrorEnvelope, toEnvelope } from "../errors.ts";
import { log } from "../log.ts";
import { createLspConnection } from "../lsp/connection.ts";
import { initializeParams, negotiatedEncoding } from "../lsp/initialize.ts";
import type { PositionEncoding } from "../lsp/positions.ts";
import type { ExitInfo, SupervisedProcess } from "../process/launch.ts";
import { readWorkspaceText } from "../workspace/confined.ts";
import { pathToUri } from "../workspace/uri.ts";
import { lacksCapability, offers } from "./capability.ts";
import { DiagnosticStore } from "./diagnostics.ts";
import { DocumentStore, type OpenDocument } from "./documents.ts";
import type { SessionHooks } from "./hooks.ts";
import { ProgressTracker } from "./progress.ts";
import { Readiness } from "./readiness.ts";
import { isContentModified, sendBounded, serverError } from "./rpc.ts";
import { installServerHandlers } from "./server-requests.ts";
import {
  asBridgeError,
  cancelledError,
  deadError,
  initFailedError,
  protocolError,
  readyTimeoutError,
  type SessionLabel,
  stateTimeoutError,
  unhealthyLoadError,
} from "./session-errors.ts";
import { StateSignal } from "./signal.ts";
import { findWarmupFile } from "./warmup.ts";

export type SessionState =
  | "not_started"
  | "starting"
  | "initializing"
  | "waiting_ready"
  | "ready"
  | "stopping"
  | "dead";

const CONTENT_MODIFIED_RETRIES = 3;
const STDERR_TAIL_CHARS = 4096;

export interface WaitContext {
  signal?: AbortSignal;
  /** readiness progress for MCP notifications/progress (SPEC §3.3) */
  onProgress?: (message: string) => void;
}

export function sessionKey(workspace: string, server: string): string {
  return `${workspace}/${server}`;
}

export class Session {
  readonly key: string;
  state: SessionState = "not_started";
  /** increments on every (re)start: handles from an earlier life are foreign (SPEC §7.3) */
  epoch = 0;
  encoding: PositionEncoding = "utf-16";
  capabilities: ServerCapabilities | undefined;
  readonly registrations = new Map<string, Registration>();
  readonly progress = new ProgressTracker();
  readonly diagnostics = new DiagnosticStore();
  readonly signal = new StateSignal();
  readiness: Readiness;
  documents: DocumentStore;
  observedVersion: string | undefined;
  serverPid: number | undefined;
  startedAt: number | undefined;
  readyAt: number | undefined;
  lastExit: (ExitInfo & { stderr_tail: string }) | undefined;
  lastError: ErrorEnvelope | undefined;
  inflight = 0;
  lastUsed = 0;
  /** set while a readiness failure (health error) is pending for waiters */
  private readyFailure: BridgeError | undefined;
  private proc: SupervisedProcess | undefined;
  private conn: MessageConnection | undefined;
  private startPromise: Promise<void> | undefined;
  private stopPromise: Promise<void> | undefined;
  private unsubscribeDriver: (() => void) | undefined;
  private probeRunning = false;
  /** the server broke the protocol: pending and new requests fail at once */
  private broken = false;

  constructor(
    readonly workspace: WorkspaceConfig,
    readonly server: ServerConfig,
    readonly bridge: BridgeConfig,
    private readonly hooks: SessionHooks,
  ) {
    this.key = sessionKey(workspace.name, server.name);
    this.readiness = new Readiness(server.ready);
    this.documents = this.newDocumentStore();
  }

  get label(): SessionLabel {
    return { key: this.key, workspace: this.workspace.name, server: this.server.name };
  }

  get pid(): number | undefined {
    return this.proc?.supervisorPid;
  }

  /** Live = holding (or about to hold) a process; counts against max_sessions. */
  isLive(): boolean {
    return this.state !== "not_started" && this.state !== "dead";
  }

  isIdle(): boolean {
    return this.inflight === 0;
  }

  private newDocumentStore(): DocumentStore {
    return new DocumentStore(this.bridge.max_open_documents, {
      open: (d) =>
        this.notifyServer("textDocument/didOpen", {
          textDocument: { uri: d.uri, languageId: d.languageId, version: d.version, text: d.text },
        }),
      change: (d) =>
        this.notifyServer("textDocument/didChange", {
          textDocument: { uri: d.uri, version: d.version },
          contentChanges: [{ text: d.text }],
        }),
      close: (uri) => this.notifyServer("textDocument/didClose", { textDocument: { uri } }),
    });
  }

  private notifyServer(method: string, params: unknown): void {
    if (!this.conn) return;
    void this.conn.sendNotification(method, params).catch((err: unknown) => {
      log.debug(`[${this.key}] ${method} not sent: ${String(err)}`);
    });
  }

  // ---------------------------------------------------------------- lifecycle

  /** Start if needed and wait until ready (bounded by ready_timeout_ms). */
  async ensureReady(ctx: WaitContext = {}): Promise<void> {
    if (this.state === "dead") throw this.deadError();
    if (this.state === "stopping" && this.stopPromise) await this.stopPromise;
    if (this.state === "not_started") this.startPromise = this.start();
    if (this.startPromise) await this.startPromise;
    if (this.state === "ready") return;
    await this.waitFor(
      () => {
        if (this.readyFailure) throw this.readyFailure;
        if (this.state === "dead") throw this.deadError();
        return this.state === "ready" ? true : undefined;
      },
      ctx,
      () => this.readiness.pendingStartup(this.progress),
    );
  }

  /** After start-up: wait while matching progress is active or the server is not quiescent. */
  async holdForSemantic(ctx: WaitContext = {}): Promise<void> {
    if (this.readiness.pendingHold(this.progress).length === 0) return;
    await this.waitFor(
      () => {
        if (this.state === "dead") throw this.deadError();
        return this.readiness.pendingHold(this.progress).length === 0 ? true : undefined;
      },
      ctx,
      () => this.readiness.pendingHold(this.progress),
    );
  }

  private waitFor(
    check: () => true | undefined,
    ctx: WaitContext,
    pending: () => string[],
  ): Promise<true> {
    let lastMessage = "";
    return this.signal.until(
      () => {
        const done = check();
        if (done === undefined && ctx.onProgress) {
          const message = this.progressMessage(pending());
          if (message !== lastMessage) {
            lastMessage = message;
            ctx.onProgress(message);
          }
        }
        return done;
      },
      {
        timeoutMs: this.bridge.ready_timeout_ms,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        onTimeout: () => readyTimeoutError(this.label, this.bridge.ready_timeout_ms, pending()),
        onAbort: cancelledError,
      },
    );
  }

  private progressMessage(pending: string[]): string {
    const tasks = this.progress
      .active()
      .map(
        (t) =>
          `${t.title}${t.message ? ` ${t.message}` : ""}${t.percentage !== undefined ? ` ${t.percentage}%` : ""}`,
      );
    return `${this.server.name}: waiting for ${pending.join(", ") || "start"}${tasks.length ? ` (${tasks.join("; ")})` : ""}`;
  }

  private async start(): Promise<void> {
    this.state = "starting";
    this.epoch += 1;
    this.lastError = undefined;
    this.readyFailure = undefined;
    this.readiness = new Readiness(this.server.ready);
    this.progress.clear();
    this.diagnostics.clear();
    this.registrations.clear();
    this.documents = this.newDocumentStore();
    this.probeRunning = false;
    this.broken = false;
    this.startedAt = Date.now();
    this.readyAt = undefined;
    this.signal.notify();
    try {
      const extraArgs = await this.hooks.prepare(this.workspace, this.server);
      this.observedVersion = await this.hooks.verifyVersion(this.server, this.workspace.root);
      const proc = this.hooks.launch({
        command: this.server.command,
        args: [...this.server.args, ...extraArgs],
        cwd: this.workspace.root,
        env: this.hooks.environment(this.server),
        setpriv: this.bridge.setpriv,
        graceMs: this.bridge.shutdown_grace_ms,
      });
      this.proc = proc;
      void proc.serverPid.then((pid) => {
        if (this.proc === proc) this.serverPid = pid;
      });
      proc.onStderrLine((line) => log.debug(`[${this.key}] stderr: ${line}`));
      void proc.exited.then((exit) => this.onExit(proc, exit));
      const conn = createLspConnection(proc.stdout, proc.stdin, this.key);
      this.conn = conn;
      installServerHandlers(conn, {
        label: this.key,
        settings: this.server.settings,
        workspaceFolders: [{ uri: pathToUri(this.workspace.root), name: this.workspace.name }],
        registrations: this.registrations,
        onProgress: (token, value) => this.progress.update(token, value),
        onServerStatus: (s) => this.readiness.onServerStatus(s),
        onLogMessage: (text) => this.readiness.onLogMessage(text),
        onPublishDiagnostics: (p) => this.diagnostics.onPublish(p),
        notify: () => this.signal.notify(),
      });
      conn.onClose(() => this.signal.notify());
      conn.onError(([err]) => this.onProtocolError(proc, err));
      conn.listen();
      this.state = "initializing";
      this.signal.notify();
      const init = await this.initialize(conn);
      this.capabilities = init.capabilities ?? {};
      this.encoding = negotiatedEncoding(init);
      await conn.sendNotification("initialized", {});
      if (Object.keys(this.server.settings).length > 0) {
        await conn.sendNotification("workspace/didChangeConfiguration", {
          settings: this.server.settings,
        });
      }
      this.state = "waiting_ready";
      this.unsubscribeDriver = this.signal.subscribe(() => this.driveReadiness());
      await this.warmup();
      this.signal.notify();
    } catch (err) {
      await this.failStart(err);
      throw asBridgeError(err);
    } finally {
      this.startPromise = undefined;
    }
  }

  private async initialize(conn: MessageConnection): Promise<InitializeResult> {
    const params = initializeParams(this.workspace, this.server, this.bridge.column_unit);
    try {
      return await this.send<InitializeResult>(conn, "initialize", params, undefined);
    } catch (err) {
      if (err instanceof BridgeError && err.code === "SessionDead") throw err;
      throw initFailedError(this.label, err);
    }
  }

  /** warmup_open (SPEC §3.3): open the first matching file so the server starts loading. */
  private async warmup(): Promise<void> {
    const pattern = this.server.ready.warmup_open;
    if (pattern !== null) {
      const abs = await findWarmupFile(this.workspace.root, pattern);
      if (abs) {
        const { text, sha256 } = readWorkspaceText(
          this.workspace.root,
          abs,
          this.bridge.max_file_bytes,
        );
        this.syncDocument(abs, text, sha256);
      } else {
        log.warn(`[${this.key}] warmup_open: no file matches ${pattern}`);
      }
    }
    this.readiness.warmupDone = true;
  }

  /** Re-evaluated on every server event while waiting_ready. */
  private driveReadiness(): void {
    if (this.state !== "waiting_ready" || !this.readiness.warmupDone) return;
    const health = this.readiness.healthError();
    if (health !== undefined) {
      this.readyFailure = unhealthyLoadError(this.label, health, this.readiness.status);
      this.lastError = this.readyFailure.toEnvelope();
      // not left half-alive: the tree goes, the session is dead until session_restart
      void this.stop("dead");
      return;
    }
    if (this.readiness.pendingBeforeProbe(this.progress).length > 0) return;
    const probe = this.server.ready.probe;
    if (probe !== null && !this.readiness.probeOk) {
      if (!this.probeRunning && this.conn) this.runProbe(this.conn, probe.method, probe.params);
      return;
    }
    this.state = "ready";
    this.readyAt = Date.now();
    this.unsubscribeDriver?.();
    this.unsubscribeDriver = undefined;
    log.info(`[${this.key}] ready in ${this.readyAt - (this.startedAt ?? this.readyAt)} ms`);
    queueMicrotask(() => this.signal.notify());
  }

  /** The probe is retried only when the next readiness event arrives, never on a timer. */
  private runProbe(conn: MessageConnection, method: string, params: unknown): void {
    this.probeRunning = true;
    this.send(conn, method, params, undefined).then(
      () => {
        this.probeRunning = false;
        this.readiness.probeOk = true;
        this.signal.notify();
      },
      (err: unknown) => {
        log.debug(
          `[${this.key}] probe ${method} failed, retrying on the next event: ${String(err)}`,
        );
        this.signal
          .next({ timeoutMs: this.bridge.ready_timeout_ms, onTimeout: () => new Error("probe") })
          .then(
            () => {
              this.probeRunning = false;
              this.signal.notify();
            },
            () => {
              this.probeRunning = false;
            },
          );
      },
    );
  }

  private onExit(proc: SupervisedProcess, exit: ExitInfo): void {
    if (this.proc !== proc) return;
    const stderr_tail = proc.stderrTail().slice(-STDERR_TAIL_CHARS);
    this.lastExit = { ...exit, stderr_tail };
    this.conn?.dispose();
    this.conn = undefined;
    this.proc = undefined;
    this.serverPid = undefined;
    this.unsubscribeDriver?.();
    this.unsubscribeDriver = undefined;
    if (this.state !== "stopping") {
      // never restarted implicitly (SPEC §9.1): calls get SessionDead until session_restart
      this.state = "dead";
      log.warn(
        `[${this.key}] server exited (code ${exit.code}, signal ${exit.signal}); session is dead`,
      );
    }
    this.signal.notify();
  }

  /** The server wrote something that is not LSP: it cannot be trusted any more (SPEC §8). */
  private onProtocolError(proc: SupervisedProcess, err: Error): void {
    if (this.proc !== proc || this.state === "stopping") return;
    log.warn(`[${this.key}] protocol error from the server: ${err.message}; stopping it`);
    this.lastError = protocolError(this.label, err.message).toEnvelope();
    this.broken = true;
    this.signal.notify();
    // during start-up the failing handshake stops the tree (failStart)
    if (!this.startPromise) void this.stop("dead");
  }

  private async failStart(err: unknown): Promise<void> {
    this.lastError = toEnvelope(err);
    const proc = this.proc;
    if (proc) {
      // a half-started server is never left alive
      this.state = "stopping";
      this.conn?.dispose();
      this.conn = undefined;
      await proc.terminate(this.bridge.shutdown_grace_ms);
      this.lastExit = {
        ...(await proc.exited),
        stderr_tail: proc.stderrTail().slice(-STDERR_TAIL_CHARS),
      };
      this.proc = undefined;
      this.state = "dead";
    } else if (this.state !== "dead") {
      // nothing ran (version pin, prerequisites): the next call checks again
      this.state = "not_started";
    }
    this.signal.notify();
  }

  deadError(): BridgeError {
    return deadError(this.label, this.lastExit, this.lastError);
  }

  /**
   * Stop the tree (SPEC §9.2): LSP shutdown + exit, then the supervisor ladder.
   * `next` is the state afterwards: not_started (eviction, restart) or dead.
   */
  stop(next: "not_started" | "dead" = "not_started"): Promise<void> {
    if (this.stopPromise) return this.stopPromise;
    const run = async (): Promise<void> => {
      if (this.startPromise) await this.startPromise.catch(() => {});
      const proc = this.proc;
      const conn = this.conn;
      if (!proc) {
        if (this.state !== "dead" || next === "not_started") this.state = next;
        return;
      }
      this.state = "stopping";
      this.signal.notify();
      const grace = this.bridge.shutdown_grace_ms;
      if (conn) {
        // LSP shutdown gets the grace period (SPEC §9.2); exit follows either way
        await bounded(
          this.send(conn, "shutdown", undefined, undefined).catch(() => {}),
          grace,
        );
        await conn.sendNotification("exit").catch(() => {});
      }
      await proc.terminate(grace);
      const exit = await proc.exited;
      this.lastExit = { ...exit, stderr_tail: proc.stderrTail().slice(-STDERR_TAIL_CHARS) };
      this.conn?.dispose();
      this.conn = undefined;
      this.proc = undefined;
      this.serverPid = undefined;
      this.state = next;
      this.documents.clear();
      this.signal.notify();
    };
    this.stopPromise = run().finally(() => {
      this.stopPromise = undefined;
    });
    return this.stopPromise;
  }

  // ---------------------------------------------------------------- requests

  /** A semantic request: ready, not held by re-indexing, bounded, ContentModified retried. */
  async request<R>(method: string, params: unknown, ctx: WaitContext = {}): Promise<R> {
    await this.ensureReady(ctx);
    await this.holdForSemantic(ctx);
    for (let attempt = 0; ; attempt++) {
      const conn = this.conn;
      if (!conn || this.state === "dead") throw this.deadError();
      try {
        return await this.send<R>(conn, method, params, ctx.signal);
      } catch (err) {
        if (isContentModified(err) && attempt < CONTENT_MODIFIED_RETRIES) {
          await this.signal.next({
            timeoutMs: this.bridge.request_timeout_ms,
            onTimeout: () => serverError(method, err as ResponseError<unknown>),
          });
          continue;
        }
        throw err instanceof ResponseError ? serverError(method, err) : err;
      }
    }
  }

  /** One bounded request (rpc.ts); fails at once when the session dies or breaks. */
  private send<R>(
    conn: MessageConnection,
    method: string,
    params: unknown,
    signal: AbortSignal | undefined,
  ): Promise<R> {
    return sendBounded<R>(conn, method, params, {
      timeoutMs: this.bridge.request_timeout_ms,
      signal,
      watch: this.signal,
      failure: () =>
        this.broken ||
        this.state === "dead" ||
        (this.conn !== conn && this.state !== "initializing")
          ? this.deadError()
          : undefined,
    });
  }

  /** Whether the server offers a method, statically or by dynamic registration. */
  offers(provider: keyof ServerCapabilities, method: string): boolean {
    return offers(this.capabilities, this.registrations, provider, method);
  }

  requireCapability(provider: keyof ServerCapabilities, method: string): void {
    if (!this.offers(provider, method)) throw lacksCapability(this.server.name, method);
  }

  /** Make the server's copy of a file current (SPEC §5). */
  syncDocument(abs: string, text: string, sha256: string): OpenDocument {
    const uri = pathToUri(abs);
    const languageId = this.hooks.languageIdFor(this.server, abs);
    return this.documents.sync(abs, uri, languageId, text, sha256, this.diagnostics.seq).doc;
  }

  /** Tell the server a file was saved after the applier wrote it (SPEC §7.4). */
  notifySaved(doc: OpenDocument): void {
    const sync = this.capabilities?.textDocumentSync;
    if (sync && typeof sync === "object" && sync.save) {
      const includeText = typeof sync.save === "object" && sync.save.includeText === true;
      this.notifyServer("textDocument/didSave", {
        textDocument: { uri: doc.uri },
        ...(includeText ? { text: doc.text } : {}),
      });
    }
  }

  /** Wait on session state (diagnostics settle), bounded by request_timeout_ms. */
  waitUntil<T>(check: () => T | undefined, what: string, signal?: AbortSignal): Promise<T> {
    return this.signal.until(
      () => {
        if (this.state === "dead") throw this.deadError();
        return check();
      },
      {
        timeoutMs: this.bridge.request_timeout_ms,
        ...(signal ? { signal } : {}),
        onTimeout: () => stateTimeoutError(this.label, this.bridge.request_timeout_ms, what),
        onAbort: cancelledError,
      },
    );
  }
}
