/**
 * What every part of one session shares (SPEC §9.1): who it is, its configuration, the
 * injected effects and the state the server feeds; each part receives this one object.
 */
import type { Registration } from "vscode-languageserver-protocol";
import { languageOfFile } from "../config/server-files.ts";
import type { BridgeConfig, ServerConfig } from "../config/types.ts";
import { type LineModel, lineModel } from "../text/line-model.ts";
import type { ServerLines } from "../text/line-rule.ts";
import { Program } from "../workspace/program.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { DiagnosticStore } from "./diagnostics.ts";
import type { SessionHooks } from "./hooks.ts";
import { Lifecycle } from "./lifecycle.ts";
import { ProgressTracker } from "./progress.ts";
import {
  cancelledError,
  type SessionLabel,
  shuttingDownError,
  stateTimeoutError,
} from "./session-errors.ts";
import type { SettleRule } from "./settle/rule.ts";
import { settleRule } from "./settle/rules.ts";
import { type Runs, runsOf } from "./settle/runs.ts";

export function sessionKey(workspace: string, server: string): string {
  return `${workspace}/${server}`;
}

export class SessionContext {
  readonly key: string;
  readonly label: SessionLabel;
  readonly life: Lifecycle;
  readonly progress: ProgressTracker;
  /** when its diagnostics are settled (SPEC §6), chosen once */
  readonly settle: SettleRule;
  /** the server's diagnostics check runs; null: none */
  readonly runs: Runs | null;
  readonly diagnostics: DiagnosticStore;
  readonly registrations = new Map<string, Registration>();
  /** where the server breaks lines in what it reads (`line_terminators`, SPEC §5) */
  readonly lines: LineModel;
  /** … and in its answers (`answer_line_terminators`, else the same) */
  readonly answerLines: LineModel;
  /** both, and which its edits count in (`edit_lines`, text/line-rule.ts) */
  readonly serverLines: ServerLines;
  /** restarts because a file the server does not reload changed (`restart_on`) */
  readonly restarts = { count: 0, last: undefined as string | undefined };
  /** which files the server sees as part of the whole program (`program`, SPEC §4.3) */
  readonly program: Program;

  constructor(
    readonly workspace: Workspace,
    readonly server: ServerConfig,
    readonly bridge: BridgeConfig,
    readonly hooks: SessionHooks,
  ) {
    this.key = sessionKey(workspace.name, server.name);
    this.settle = settleRule(server);
    this.runs = runsOf(server);
    // runs the bridge starts can still overlap under one token (progress.ts)
    this.progress = new ProgressTracker(this.runs?.start ? this.runs.patterns : []);
    this.diagnostics = new DiagnosticStore(workspace);
    this.lines = lineModel(server.line_terminators);
    this.answerLines = lineModel(server.answer_line_terminators ?? server.line_terminators);
    this.serverLines = { read: this.lines, answer: this.answerLines, edits: server.edit_lines };
    this.label = { key: this.key, workspace: workspace.name, server: server.name };
    this.life = new Lifecycle(this.label);
    this.program = new Program(
      workspace,
      server.program,
      (rel) => languageOfFile(server, rel) !== undefined,
    );
  }

  /** A new server life: nothing the last one said holds. */
  resetServerState(): void {
    this.progress.clear();
    this.diagnostics.clear();
    this.registrations.clear();
  }

  /** Until `check` gives a value, on session events; request_timeout_ms, dying fails it. */
  waitUntil<T>(check: () => T | undefined, what: string, signal?: AbortSignal): Promise<T> {
    const { life, bridge } = this;
    return life.changes.until(
      () => {
        if (life.closing) throw shuttingDownError(life.label);
        if (life.state === "dead") throw life.deadError();
        return check();
      },
      {
        timeoutMs: bridge.request_timeout_ms,
        ...(signal ? { signal } : {}),
        onTimeout: () => stateTimeoutError(life.label, bridge.request_timeout_ms, what),
        onAbort: cancelledError,
      },
    );
  }
}
