/**
 * Driving a starting session to ready (SPEC §3.3): warmup_open, the conditions re-evaluated
 * on every server event (readiness.ts decides), the probe retried on the next event, an
 * unhealthy load ending the session; and the callers' waits for ready and re-indexing.
 */
import { languageOfFile } from "../config/server-files.ts";
import { log } from "../log.ts";
import type { WorkspaceText } from "../workspace/confined.ts";
import { uriToPath } from "../workspace/uri.ts";
import type { SessionContext } from "./context.ts";
import { Readiness } from "./readiness.ts";
import {
  cancelledError,
  neverReadyError,
  readyTimeoutError,
  shuttingDownError,
  unhealthyLoadError,
} from "./session-errors.ts";
import { findWarmupFile, type ProjectChoice, type WarmupOutcome } from "./warmup.ts";

export interface WaitContext {
  signal?: AbortSignal;
  /** readiness progress for MCP notifications/progress (SPEC §3.3) */
  onProgress?: (message: string) => void;
  /** sessions restarted for this call, and why ("server: file changed"), for its answer */
  restarted?: string[];
}

/** What the driver does through the rest of its session. */
export interface ReadinessActions {
  /** one bounded request on the current connection; undefined when there is none */
  probe(method: string, params: unknown): Promise<unknown> | undefined;
  /** warmup_open: have the server open this file */
  openFile(content: WorkspaceText): void;
  /** an unhealthy load: the tree goes and the session ends dead until session_restart */
  endDead(): void;
}

export class ReadinessDriver {
  /** the conditions as evaluated so far in this life (session_status, the settle rules) */
  readiness: Readiness;
  private probeRunning = false;
  /** the warm-up file whose first publish warmup_publish waits for */
  private publishAwaited: string | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly ctx: SessionContext,
    private readonly actions: ReadinessActions,
  ) {
    this.readiness = new Readiness(ctx.server.ready);
  }

  /** what the warm-up of the current life opened and skipped (session_status) */
  warmupOutcome: WarmupOutcome | undefined;

  /** A new server life: nothing has been said yet. */
  reset(): void {
    this.detach();
    this.warmupOutcome = undefined;
    this.publishAwaited = undefined;
    this.readiness = new Readiness(this.ctx.server.ready);
    this.probeRunning = false;
  }

  /** From waiting_ready on: every event re-evaluates, until ready or the life ends. */
  attach(): void {
    this.unsubscribe ??= this.ctx.life.changes.subscribe(() => this.drive());
  }

  detach(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /**
   * warmup_open (SPEC §3.3): open the file that represents the workspace (warmup.ts), never
   * a failed start; what it opened decides which progress can still be expected.
   */
  async warmup(): Promise<void> {
    const evaluator = this.readiness;
    const { ready } = this.ctx.server;
    const pattern = ready.warmup_open;
    if (pattern !== null) {
      const key = this.ctx.key;
      const found = await findWarmupFile(this.ctx.workspace, pattern, this.projectChoice());
      // a life that ended during the scan: its warm-up is not the new life's
      if (this.readiness !== evaluator) return;
      this.warmupOutcome = found.outcome;
      for (const s of found.outcome.skipped) {
        log.warn(`[${key}] warmup_open: skipped ${s.file} (${s.reason})`);
      }
      if (found.opened) {
        this.actions.openFile(found.opened);
        if (ready.warmup_publish) {
          evaluator.warmupPublish = { file: found.opened.rel, seen: false };
          this.publishAwaited = found.opened.abs;
        }
      } else {
        log.warn(`[${key}] warmup_open: no usable file matches ${pattern}`);
      }
      const names = ready.project_files.join(", ");
      if (ready.project_files.length > 0 && !found.outcome.project) {
        evaluator.progressNotExpected = found.opened
          ? `${found.opened.rel} is in no project (no ${names} in its directory or above)`
          : `no file matching ${pattern} was opened`;
      } else if (!found.opened && ready.progress_required) {
        evaluator.neverHolds =
          `its required progress begins once a file is opened, and no usable file matches ` +
          `warmup_open ${pattern}`;
      }
    }
    evaluator.warmupDone = true;
  }

  /** How the warm-up ranks matches: with project_files, by project and language. */
  private projectChoice(): ProjectChoice | undefined {
    const { server } = this.ctx;
    if (server.ready.project_files.length === 0) return undefined;
    const order = (rel: string): number => {
      const lang = languageOfFile(server, rel);
      const i = lang === undefined ? -1 : server.languages.indexOf(lang);
      return i < 0 ? server.languages.length : i;
    };
    return { files: server.ready.project_files, language: order };
  }

  /** A publish arrived: warmup_publish's, compared by path (servers spell URIs their way). */
  onPublish(uri: string): void {
    const awaited = this.readiness.warmupPublish;
    if (awaited === undefined || awaited.seen || this.publishAwaited === undefined) return;
    if (uriToPath(uri) === this.publishAwaited) awaited.seen = true;
  }

  private drive(): void {
    const { life } = this.ctx;
    if (life.state !== "waiting_ready" || !this.readiness.warmupDone) return;
    const health = this.readiness.healthError();
    const never = this.readiness.neverHolds;
    if (health !== undefined || never !== undefined) {
      life.failLoad(
        never !== undefined
          ? neverReadyError(life.label, never)
          : unhealthyLoadError(life.label, health as string, this.readiness.status),
      );
      this.actions.endDead();
      return;
    }
    if (this.readiness.pendingBeforeProbe(this.ctx.progress).length > 0) return;
    const probe = this.ctx.server.ready.probe;
    if (probe !== null && !this.readiness.probeOk) {
      if (!this.probeRunning) this.runProbe(probe.method, probe.params);
      return;
    }
    life.moveTo("ready");
    this.detach();
    const readyAt = life.readyAt ?? Date.now();
    log.info(`[${life.label.key}] ready in ${readyAt - (life.startedAt ?? readyAt)} ms`);
    // waiters are woken after this event's own round of notifications
    queueMicrotask(() => life.changes.notify());
  }

  private runProbe(method: string, params: unknown): void {
    const sent = this.actions.probe(method, params);
    if (sent === undefined) return;
    const { life } = this.ctx;
    // the probe belongs to this life: an answer arriving after reset() says nothing of the next
    const evaluator = this.readiness;
    const settle = (ok: boolean, notify: boolean) => {
      if (this.readiness !== evaluator) return;
      this.probeRunning = false;
      if (ok) evaluator.probeOk = true;
      if (notify) life.changes.notify();
    };
    this.probeRunning = true;
    sent.then(
      () => settle(true, true),
      (err: unknown) => {
        if (this.readiness !== evaluator) return;
        log.debug(
          `[${life.label.key}] probe ${method} failed, retrying on the next event: ${String(err)}`,
        );
        const timeoutMs = this.ctx.bridge.ready_timeout_ms;
        life.changes.next({ timeoutMs, onTimeout: () => new Error("probe") }).then(
          () => settle(false, true),
          () => settle(false, false),
        );
      },
    );
  }

  /** Until ready (bounded by ready_timeout_ms); fails on a dead session or an unhealthy load. */
  async waitReady(wait: WaitContext): Promise<void> {
    const { life } = this.ctx;
    if (life.state === "ready") return;
    await this.waitFor(
      () => {
        if (life.closing) throw shuttingDownError(life.label);
        if (life.readyFailure) throw life.readyFailure;
        if (life.state === "dead") throw life.deadError();
        return life.state === "ready" ? true : undefined;
      },
      wait,
      () => this.readiness.pendingStartup(this.ctx.progress),
    );
  }

  /** After start-up: wait while matching progress is active or the server is not quiescent. */
  async holdForSemantic(wait: WaitContext): Promise<void> {
    const pending = () => this.readiness.pendingHold(this.ctx.progress);
    if (pending().length === 0) return;
    const { life } = this.ctx;
    await this.waitFor(
      () => {
        if (life.state === "dead") throw life.deadError();
        return pending().length === 0 ? true : undefined;
      },
      wait,
      pending,
    );
  }

  private waitFor(
    check: () => true | undefined,
    wait: WaitContext,
    pending: () => string[],
  ): Promise<true> {
    const { life, bridge } = this.ctx;
    let lastMessage = "";
    return life.changes.until(
      () => {
        const done = check();
        if (done === undefined && wait.onProgress) {
          const message = this.progressMessage(pending());
          if (message !== lastMessage) {
            lastMessage = message;
            wait.onProgress(message);
          }
        }
        return done;
      },
      {
        timeoutMs: bridge.ready_timeout_ms,
        ...(wait.signal ? { signal: wait.signal } : {}),
        onTimeout: () =>
          readyTimeoutError(life.label, bridge.ready_timeout_ms, pending(), this.working()),
        onAbort: cancelledError,
      },
    );
  }

  /** The server is visibly at work: a progress task runs, or it reports itself busy. */
  private working(): boolean {
    return this.ctx.progress.active().length > 0 || this.readiness.status?.quiescent === false;
  }

  private progressMessage(pending: string[]): string {
    const tasks = this.ctx.progress
      .active()
      .map(
        (t) =>
          `${t.title}${t.message ? ` ${t.message}` : ""}${t.percentage !== undefined ? ` ${t.percentage}%` : ""}`,
      );
    return `${this.ctx.server.name}: waiting for ${pending.join(", ") || "start"}${tasks.length ? ` (${tasks.join("; ")})` : ""}`;
  }
}
