/**
 * The fake server's scripted activity (SPEC §3.3): progress tasks (each begun
 * only after the client answered `window/workDoneProgress/create`, like
 * clangd), `experimental/serverStatus`, `window/logMessage`, and requests to
 * the client (`workspace/applyEdit`, arbitrary ones). Each fires at a time
 * after `initialized` or when a method arrives. The fake's timers are part of
 * the script it plays, not waits in a test.
 */
import { type MessageConnection, ResponseError } from "vscode-languageserver-protocol/node";
import { defaultApplyEdit, requestUri } from "./results.ts";
import type {
  LogMessageSpec,
  ProgressSpec,
  Scenario,
  ServerRequestSpec,
  ServerStatusSpec,
  Timing,
} from "./scenario.ts";
import type { FakeState, ServerRequestAnswer } from "./state.ts";

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function errorOf(err: unknown): { code: number; message: string } {
  if (err instanceof ResponseError) return { code: err.code, message: err.message };
  return { code: 0, message: String(err) };
}

export class Behaviour {
  private readonly running = new Set<string>();
  /** waiters for `end_on`, by method */
  private readonly endWaiters = new Map<string, (() => void)[]>();

  constructor(
    private readonly s: Scenario,
    private readonly conn: MessageConnection,
    private readonly state: FakeState,
    /** called once a progress task has ended */
    private readonly onEnd: () => void = () => {},
  ) {}

  /** Start everything timed from `initialized` (entries with `on` wait for their method). */
  initialized(): void {
    for (const st of this.s.server_status ?? []) this.timed(st, () => this.sendStatus(st));
    for (const lm of this.s.log_messages ?? []) this.timed(lm, () => this.sendLog(lm));
    for (const rq of this.s.server_requests ?? []) this.timed(rq, () => this.ask(rq));
    for (const p of this.s.progress ?? []) {
      if (p.begin_on !== undefined) continue;
      void delay(p.begin_after_ms ?? 0).then(() => this.runProgress(p));
    }
  }

  private timed(t: Timing, fire: () => unknown): void {
    if (t.on !== undefined) return;
    void delay(t.after_ms ?? 0).then(fire);
  }

  /**
   * A message arrived: fire every entry waiting for it. The returned promise
   * settles once the requests it caused are answered, so a request's own reply
   * can wait for them.
   */
  received(method: string, params: unknown): Promise<void> {
    const waiters = this.endWaiters.get(method);
    if (waiters) {
      this.endWaiters.delete(method);
      for (const w of waiters) w();
    }
    const pending: Promise<unknown>[] = [];
    const onTime = (t: Timing, fire: () => unknown): void => {
      if (t.on !== method) return;
      const ms = t.after_ms ?? 0;
      if (ms > 0) void delay(ms).then(fire);
      else pending.push(Promise.resolve(fire()));
    };
    for (const st of this.s.server_status ?? []) onTime(st, () => this.sendStatus(st));
    for (const lm of this.s.log_messages ?? []) onTime(lm, () => this.sendLog(lm));
    for (const rq of this.s.server_requests ?? []) onTime(rq, () => this.ask(rq));
    for (const p of this.s.progress ?? []) {
      if (p.begin_on === method) void this.runProgress(p);
    }
    if (this.s.apply_edit_on === method) pending.push(this.applyEdit(params));
    return Promise.all(pending).then(() => undefined);
  }

  private sendStatus(st: ServerStatusSpec): void {
    const params: Record<string, unknown> = { health: st.health, quiescent: st.quiescent };
    if (st.message !== undefined) params.message = st.message;
    this.state.event("out", "experimental/serverStatus", { detail: params });
    void this.conn.sendNotification("experimental/serverStatus", params);
  }

  private sendLog(lm: LogMessageSpec): void {
    this.state.event("out", "window/logMessage", { detail: lm.text });
    void this.conn.sendNotification("window/logMessage", { type: lm.type ?? 3, message: lm.text });
  }

  private async ask(rq: ServerRequestSpec): Promise<void> {
    this.state.event("out", rq.method);
    const answer: ServerRequestAnswer = { method: rq.method };
    try {
      answer.result = await this.conn.sendRequest(rq.method, rq.params ?? null);
    } catch (err) {
      answer.error = errorOf(err);
    }
    this.state.answer("serverRequestAnswers", answer);
  }

  private async applyEdit(params: unknown): Promise<void> {
    const uri = requestUri(params) ?? "file:///nonexistent";
    const edit = this.s.apply_edit ?? defaultApplyEdit(uri);
    this.state.event("out", "workspace/applyEdit");
    try {
      const result = await this.conn.sendRequest("workspace/applyEdit", {
        label: "fake-ls edit",
        edit,
      });
      this.state.answer("applyEditAnswers", result);
    } catch (err) {
      this.state.answer("applyEditAnswers", { error: errorOf(err) });
    }
  }

  private waitForMethod(method: string): Promise<void> {
    return new Promise((resolve) => {
      const list = this.endWaiters.get(method) ?? [];
      list.push(resolve);
      this.endWaiters.set(method, list);
    });
  }

  /** create → (answer) → begin → reports → end; a task runs once at a time per token. */
  private async runProgress(p: ProgressSpec): Promise<void> {
    if (this.running.has(p.token)) return;
    this.running.add(p.token);
    try {
      this.state.event("out", "window/workDoneProgress/create", { detail: p.token });
      try {
        await this.conn.sendRequest("window/workDoneProgress/create", { token: p.token });
        this.state.answer("progressCreateAnswers", { method: "window/workDoneProgress/create" });
      } catch (err) {
        // clangd reports nothing when the client refuses the token
        this.state.answer("progressCreateAnswers", {
          method: "window/workDoneProgress/create",
          error: errorOf(err),
        });
        return;
      }
      const ended =
        p.end_on !== undefined
          ? this.waitForMethod(p.end_on)
          : p.end_after_ms !== undefined
            ? delay(p.end_after_ms)
            : undefined;
      this.progress(p.token, { kind: "begin", title: p.title, percentage: 0 });
      for (const step of p.steps ?? []) {
        if (step.after_ms !== undefined) await delay(step.after_ms);
        const report: Record<string, unknown> = { kind: "report" };
        if (step.message !== undefined) report.message = step.message;
        if (step.percentage !== undefined) report.percentage = step.percentage;
        this.progress(p.token, report);
      }
      if (ended) await ended;
      this.progress(p.token, { kind: "end" });
      this.onEnd();
    } finally {
      this.running.delete(p.token);
    }
  }

  private progress(token: string, value: Record<string, unknown>): void {
    this.state.event("out", "$/progress", { detail: { token, kind: value.kind } });
    void this.conn.sendNotification("$/progress", { token, value });
  }
}
