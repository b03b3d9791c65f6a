/**
 * Readiness by state (SPEC §3.3), pure: the start-up conditions and, after start-up, what
 * holds semantic requests, evaluated over what the server has said; readiness-driver.ts
 * feeds it events and waits on them.
 */
import type { ReadyConfig } from "../config/types.ts";
import type { ProgressTask, ProgressTracker } from "./progress.ts";

/** SPEC §8: the leading characters `log_message` is tried on; progress tasks named. */
export const LOG_MATCH_CHARS = 4096;
const PENDING_TASKS_NAMED = 8;

/** `progress "<title>" active` for the first few tasks, then how many more. */
function activeTasks(tasks: readonly ProgressTask[]): string[] {
  const named = tasks
    .slice(0, PENDING_TASKS_NAMED)
    .map((t) => `progress "${t.title || t.token}" active`);
  const more = tasks.length - named.length;
  return more > 0 ? [...named, `${more} more progress tasks active`] : named;
}

export interface ServerStatus {
  health: "ok" | "warning" | "error" | string;
  quiescent: boolean;
  message?: string;
}

export class Readiness {
  readonly config: ReadyConfig;
  readonly patterns: RegExp[];
  private readonly logPattern: RegExp | null;
  status: ServerStatus | undefined;
  /** only a quiescent status after a busy one counts (SPEC §3.3) */
  private sawBusy = false;
  private logMatched = false;
  warmupDone = false;
  probeOk = false;
  /** why the start-up progress conditions do not apply to this life; undefined: they do */
  progressNotExpected: string | undefined;
  /** A condition that can never hold in this life, and why; readiness fails with it. */
  neverHolds: string | undefined;
  /** warmup_publish: the warm-up file (workspace-relative) and whether its publish came */
  warmupPublish: { file: string; seen: boolean } | undefined;

  constructor(config: ReadyConfig) {
    this.config = config;
    this.patterns = config.progress.map((p) => new RegExp(p));
    this.logPattern = config.log_message === null ? null : new RegExp(config.log_message);
  }

  /** The server has loaded: quiescent after busy, where it reports quiescence at all. */
  get loaded(): boolean {
    return !this.config.quiescent || (this.sawBusy && this.status?.quiescent === true);
  }

  onServerStatus(s: ServerStatus): void {
    if (!s.quiescent) this.sawBusy = true;
    this.status = s;
  }

  onLogMessage(text: string): boolean {
    const head = text.length > LOG_MATCH_CHARS ? text.slice(0, LOG_MATCH_CHARS) : text;
    if (this.logPattern && !this.logMatched && this.logPattern.test(head)) {
      this.logMatched = true;
      return true;
    }
    return false;
  }

  /** Conditions other than the probe that are still pending at start-up. */
  pendingBeforeProbe(progress: ProgressTracker): string[] {
    const pending: string[] = [];
    if (this.config.warmup_open !== null && !this.warmupDone) {
      pending.push(`warmup_open ${this.config.warmup_open}`);
    }
    if (!this.loaded) pending.push("quiescent");
    if (this.patterns.length > 0 && this.progressNotExpected === undefined) {
      pending.push(...activeTasks(progress.activeMatching(this.patterns)));
      if (this.config.progress_required && !progress.begunMatching(this.patterns)) {
        pending.push(`progress_required (${this.config.progress.join(", ")})`);
      }
    }
    if (this.logPattern && !this.logMatched)
      pending.push(`log_message /${this.config.log_message}/`);
    if (this.warmupPublish && !this.warmupPublish.seen)
      pending.push(`warmup_publish ${this.warmupPublish.file}`);
    return pending;
  }

  pendingStartup(progress: ProgressTracker): string[] {
    const pending = this.pendingBeforeProbe(progress);
    if (this.config.probe !== null && !this.probeOk)
      pending.push(`probe ${this.config.probe.method}`);
    return pending;
  }

  /** Conditions holding a semantic request after start-up (re-indexing, reloading). */
  pendingHold(progress: ProgressTracker): string[] {
    const pending: string[] = [];
    if (this.config.quiescent && this.status?.quiescent === false) pending.push("quiescent");
    pending.push(...activeTasks(progress.activeMatching(this.patterns)));
    return pending;
  }

  /** rust-analyzer's `health: "error"` at quiescence: surfaced, never a healthy ready. */
  healthError(): string | undefined {
    if (this.status?.health !== "error" || !this.status.quiescent) return undefined;
    return this.status.message ?? "server reported health error";
  }

  /** Each declared condition, described, with whether it holds now (session_status). */
  conditions(progress: ProgressTracker): { condition: string; met: boolean }[] {
    const c = this.config;
    const out: { condition: string; met: boolean }[] = [];
    if (c.warmup_open !== null) {
      out.push({ condition: `warmup_open ${c.warmup_open}`, met: this.warmupDone });
    }
    if (c.quiescent) out.push({ condition: "quiescent", met: this.loaded });
    if (c.progress.length > 0) {
      const idle = progress.activeMatching(this.patterns).length === 0;
      const begun = !c.progress_required || progress.begunMatching(this.patterns);
      const why = this.progressNotExpected;
      out.push({
        condition: `progress ${c.progress.join(", ")}${c.progress_required ? " (required)" : ""}${why ? ` (not expected: ${why})` : ""}`,
        met: why !== undefined || (idle && begun),
      });
    }
    if (this.logPattern)
      out.push({ condition: `log_message /${c.log_message}/`, met: this.logMatched });
    if (c.warmup_publish) {
      const w = this.warmupPublish;
      out.push({
        condition: `warmup_publish ${w?.file ?? "(nothing opened)"}`,
        met: this.warmupDone && (w === undefined || w.seen),
      });
    }
    if (c.probe !== null) out.push({ condition: `probe ${c.probe.method}`, met: this.probeOk });
    return out;
  }
}
