/**
 * The server process behind a session, one life at a time (SPEC §9.1): starting it and
 * ending it (stop.ts). Whoever ends a life, the session forgets it in one place: `release`,
 * run when the process exits.
 */
import type {
  InitializeResult,
  MessageConnection,
  ServerCapabilities,
} from "vscode-languageserver-protocol";
import { bounded } from "../bounded.ts";
import { BridgeError, toEnvelope } from "../errors.ts";
import { log } from "../log.ts";
import { createLspConnection } from "../lsp/connection.ts";
import { initializeParams, negotiatedEncoding } from "../lsp/initialize.ts";
import type { ExitInfo, SupervisedProcess } from "../process/launch.ts";
import type { ContainmentInfo } from "../process/pid-namespace.ts";
import type { PositionEncoding } from "../text/positions.ts";
import type { PreparedFiles } from "../workspace/requirements.ts";
import { pathToUri } from "../workspace/uri.ts";
import type { SessionContext } from "./context.ts";
import type { Documents } from "./documents.ts";
import type { ReadinessDriver } from "./readiness-driver.ts";
import type { Requests } from "./requests.ts";
import { installServerHandlers } from "./server-requests.ts";
import {
  asBridgeError,
  initFailedError,
  protocolError,
  shuttingDownError,
} from "./session-errors.ts";
import { runsOnWithoutStdout, STDOUT_CLOSED } from "./stdout-end.ts";
import { remaining, stopServer } from "./stop.ts";

/** The parts of a session a server life starts, feeds and resets. */
export interface SessionParts {
  readonly driver: ReadinessDriver;
  readonly documents: Documents;
  readonly requests: Requests;
  /** waits for a slot under max_sessions; resolves with its release */
  readonly admit: () => Promise<() => void>;
}

export class ServerProcess {
  // the current life's, written only here
  connection: MessageConnection | undefined;
  capabilities: ServerCapabilities | undefined;
  encoding: PositionEncoding = "utf-16";
  observedVersion: string | undefined;
  serverPid: number | undefined;
  private proc: SupervisedProcess | undefined;
  /** resolves once `release` has run for the current process */
  private released: Promise<void> | undefined;
  private startPromise: Promise<void> | undefined;
  private stopPromise: Promise<void> | undefined;

  constructor(
    private readonly ctx: SessionContext,
    private readonly parts: SessionParts,
  ) {}

  get supervisorPid(): number | undefined {
    return this.proc?.supervisorPid;
  }
  /** what holds the current tree together (SPEC §9.2); undefined when none runs */
  get containment(): ContainmentInfo | undefined {
    return this.proc?.containment;
  }

  /** Start a life unless one runs or starts; a dead session stays dead (SessionDead). */
  async ensureStarted(): Promise<void> {
    const { life } = this.ctx;
    if (life.closing) throw shuttingDownError(life.label);
    // a failed load ends the session: every later call says SessionDead with its cause,
    // however far the stop has come (SPEC §3.3)
    if (life.readyFailure && life.state !== "not_started") {
      if (this.stopPromise) await this.stopPromise;
      throw life.deadError();
    }
    if (life.state === "dead") throw life.deadError();
    if (life.state === "stopping" && this.stopPromise) await this.stopPromise;
    if (life.state === "not_started" && !this.startPromise)
      this.startPromise = this.admitAndStart();
    if (this.startPromise) await this.startPromise;
  }

  /** A new life only once the manager granted a slot (SPEC §9.1); the slot is held until then. */
  private async admitAndStart(): Promise<void> {
    let release: (() => void) | undefined;
    try {
      release = await this.parts.admit();
      await this.start();
    } finally {
      // started: the live tree holds the slot from now on; failed: the tree is gone
      release?.();
      this.startPromise = undefined;
    }
  }

  /**
   * Stop the tree (SPEC §9.2) by `deadline`, at most KILL_BOUND_MS later; `next` is the state
   * afterwards. A start in progress settles first (bounded by the deadline when exiting).
   */
  stop(
    next: "not_started" | "dead",
    deadline = Date.now() + this.ctx.bridge.shutdown_grace_ms,
  ): Promise<void> {
    if (this.stopPromise) return this.stopPromise;
    const run = async (): Promise<void> => {
      const start = this.startPromise?.catch(() => {});
      if (start && this.ctx.life.closing) await bounded(start, remaining(deadline));
      else if (start) await start;
      const { life } = this.ctx;
      const proc = this.proc;
      if (!proc) {
        // nothing runs; only an explicit not_started (eviction, restart) revives a dead session
        if (next === "not_started") life.moveTo("not_started");
        return;
      }
      await this.end(proc, true, deadline);
      life.moveTo(next);
      life.changes.notify();
    };
    this.stopPromise = run().finally(() => {
      this.stopPromise = undefined;
    });
    return this.stopPromise;
  }

  /** A notification to the server of the current life; dropped when there is none. */
  notify(method: string, params: unknown): void {
    if (!this.connection) return;
    const notSent = (err: unknown) =>
      log.debug(`[${this.ctx.key}] ${method} not sent: ${String(err)}`);
    try {
      void this.connection.sendNotification(method, params).catch(notSent);
    } catch (err) {
      notSent(err); // a closed connection throws at once
    }
  }

  private async start(): Promise<void> {
    const { life, workspace, server, hooks } = this.ctx;
    life.beginLife();
    this.ctx.resetServerState();
    this.parts.documents.reset();
    this.parts.driver.reset();
    life.changes.notify();
    try {
      const prepared = await hooks.prepare(workspace.config, server);
      this.observedVersion = await hooks.verifyVersion(server, workspace.root, life.closingSignal);
      // the bridge began to exit meanwhile: nothing starts any more
      if (life.closing) throw shuttingDownError(life.label);
      const conn = this.launch(prepared);
      life.moveTo("initializing");
      life.changes.notify();
      const init = await this.initialize(conn);
      this.capabilities = init.capabilities ?? {};
      this.encoding = negotiatedEncoding(init, server.position_encoding);
      await this.handshakeNotify(conn, "initialized", {});
      if (Object.keys(server.settings).length > 0) {
        await this.handshakeNotify(conn, "workspace/didChangeConfiguration", {
          settings: server.settings,
        });
      }
      // the server may have exited or broken the protocol during those notifications
      if (life.state === "dead" || life.broken) throw life.deadError();
      life.moveTo("waiting_ready");
      this.parts.driver.attach();
      await this.parts.driver.warmup();
      life.changes.notify();
    } catch (thrown) {
      // a start the bridge's exit cut short (its version check killed) says so (SPEC §9.2)
      const err = life.closing ? shuttingDownError(life.label) : thrown;
      await this.failStart(err);
      throw asBridgeError(err);
    }
  }

  /** The supervised server and the connection to it, with the server's handlers installed. */
  private launch(prepared: PreparedFiles): MessageConnection {
    const { life, workspace, server, bridge, hooks } = this.ctx;
    const { driver } = this.parts;
    const { saves, disk } = this.parts.documents;
    const key = this.ctx.key;
    const proc = hooks.launch({
      command: server.command,
      args: [...server.args, ...prepared.args],
      privateFiles: prepared.files,
      cwd: workspace.root,
      env: hooks.environment(server),
      graceMs: bridge.shutdown_grace_ms,
      // a TMPDIR the configuration sets is the user's choice (SPEC §9.2)
      privateTmp: !("TMPDIR" in server.env),
    });
    this.proc = proc;
    const { mode, reason } = proc.containment;
    const holds = mode === "pid_namespace" ? "its own PID namespace" : `a subreaper (${reason})`;
    log.info(`[${key}] supervisor ${proc.supervisorPid}: the tree is held by ${holds}`);
    void proc.serverPid.then((pid) => {
      if (this.proc === proc) this.serverPid = pid;
    });
    proc.onStderrLine((line) => log.debug(`[${key}] stderr: ${line}`));
    this.released = proc.exited.then((exit) => this.release(proc, exit));
    const conn = createLspConnection(
      proc.stdout,
      proc.stdin,
      key,
      bridge.max_server_message_bytes,
      hooks.took,
    );
    this.connection = conn;
    installServerHandlers(conn, {
      label: key,
      settings: server.settings,
      workspaceFolders: [{ uri: pathToUri(workspace.root), name: workspace.name }],
      registrations: this.ctx.registrations,
      onProgress: (token, value) => {
        const task = this.ctx.progress.update(token, value);
        const kind = (value as { kind?: unknown } | null)?.kind;
        if (task && kind !== "report")
          log.debug(`[${key}] progress ${kind} ${task.token} #${task.seq}`);
        saves.progressed();
      },
      onServerStatus: (s) => {
        const loading = driver.readiness.status?.quiescent === false;
        driver.readiness.onServerStatus(s);
        // a load ended: a run-based server checks again with what it loaded (saves.ts)
        if (loading && s.quiescent) saves.loaded();
        saves.requestIfWanted();
      },
      onLogMessage: (text) => driver.readiness.onLogMessage(text),
      onPublishDiagnostics: (p) => {
        log.debug(`[${key}] publish ${p.uri}: ${p.diagnostics?.length ?? 0} items`);
        this.ctx.diagnostics.onPublish(p);
        driver.onPublish(p.uri);
      },
      onRegistrationsChanged: () => disk.registrationsChanged(),
      notify: () => life.changes.notify(),
    });
    conn.onClose(() => {
      life.changes.notify();
      const alive = runsOnWithoutStdout({ exited: proc.exited, serverPid: () => this.serverPid });
      void alive.then((yes) => yes && this.onProtocolError(proc, new Error(STDOUT_CLOSED)));
    });
    conn.onError(([err]) => this.onProtocolError(proc, err));
    conn.listen();
    return conn;
  }

  private async initialize(conn: MessageConnection): Promise<InitializeResult> {
    const { workspace, server, bridge, life } = this.ctx;
    const clientPid = this.proc?.clientPid ?? process.pid;
    const params = initializeParams(workspace.config, server, bridge.column_unit, clientPid);
    try {
      // the handshake is part of getting ready: bounded by ready_timeout_ms (SPEC §9.1)
      return await this.parts.requests.send<InitializeResult>(
        conn,
        "initialize",
        params,
        undefined,
        bridge.ready_timeout_ms,
      );
    } catch (err) {
      if (life.closing || (err instanceof BridgeError && err.code === "SessionDead")) throw err;
      throw initFailedError(life.label, err);
    }
  }

  /**
   * A notification of the handshake, bounded like it (ready_timeout_ms): its write never
   * completes if the server stops reading, and a stop waits for the start (SPEC §9.2).
   */
  private async handshakeNotify(conn: MessageConnection, method: string, params: unknown) {
    const { life, bridge } = this.ctx;
    const sent = conn.sendNotification(method, params).then(() => true);
    if ((await bounded(sent, bridge.ready_timeout_ms)) !== true) {
      const why = `the server did not read \`${method}\` within ready_timeout_ms`;
      throw initFailedError(life.label, new Error(why));
    }
  }

  /** The one teardown of a server life, whoever ended it; runs once the process exited. */
  private release(proc: SupervisedProcess, exit: ExitInfo): void {
    if (this.proc !== proc) return;
    const { life } = this.ctx;
    life.recordExit({ ...exit, stderr_tail: proc.stderrTail() });
    this.connection?.dispose();
    this.connection = undefined;
    this.proc = undefined;
    this.serverPid = undefined;
    this.parts.driver.detach();
    this.parts.documents.clear();
    if (life.state !== "stopping") {
      // never restarted implicitly (SPEC §9.1): calls get SessionDead until session_restart
      life.moveTo("dead");
      log.warn(
        `[${life.label.key}] server exited (code ${exit.code}, signal ${exit.signal}); session is dead`,
      );
    }
    life.changes.notify();
  }

  /**
   * Stopping, the ladder, then the teardown; the caller settles the state that follows. A
   * tree killed whose exit was not seen in time is released with the ladder's report.
   */
  private async end(
    proc: SupervisedProcess,
    lspShutdown: boolean,
    deadline = Date.now() + this.ctx.bridge.shutdown_grace_ms,
  ): Promise<void> {
    const { life } = this.ctx;
    const { requests } = this.parts;
    const released = this.released?.then(() => true);
    life.moveTo("stopping");
    life.changes.notify();
    const exit = await stopServer(proc, {
      // a start abandoned because the bridge exits waits for nothing: stdin EOF at once
      deadline: life.closing && !lspShutdown ? Date.now() : deadline,
      conn: lspShutdown ? this.connection : undefined,
      shutdown: (conn) => requests.send(conn, "shutdown", undefined, undefined),
    });
    // an exit seen has been released by now (its reaction came first)
    if (released === undefined || (await bounded(released, 0)) !== true) this.release(proc, exit);
  }

  private async failStart(err: unknown): Promise<void> {
    const { life } = this.ctx;
    life.recordError(toEnvelope(err));
    const proc = this.proc;
    if (proc) {
      // a half-started server is never left alive (no LSP shutdown: the handshake failed)
      await this.end(proc, false);
      life.moveTo("dead");
    } else if (life.state !== "dead") {
      // nothing ran (version pin, prerequisites): the next call checks again
      life.moveTo("not_started");
    }
    life.changes.notify();
  }

  /** The server wrote something that is not LSP: it cannot be trusted any more (SPEC §8). */
  private onProtocolError(proc: SupervisedProcess, err: Error): void {
    const { life } = this.ctx;
    if (this.proc !== proc || life.state === "stopping") return;
    log.warn(`[${life.label.key}] protocol error from the server: ${err.message}; stopping it`);
    life.markBroken(protocolError(life.label, err.message));
    life.changes.notify();
    // during start-up the failing handshake stops the tree (failStart)
    if (!this.startPromise) void this.stop("dead");
  }
}
