/**
 * `$/progress` work-done tasks per token (SPEC §3.3), bounded by PROGRESS_LIMITS (SPEC §8),
 * drops counted. A begin on an active token replaces its task, unless that task matches
 * `overlapping`: then it stays active until an end of its own, oldest first (two runs
 * under one token).
 */
import type {
  ProgressToken,
  WorkDoneProgressBegin,
  WorkDoneProgressEnd,
  WorkDoneProgressReport,
} from "vscode-languageserver-protocol";
import { keptText } from "./kept-text.ts";

export interface ProgressTask {
  token: string;
  title: string;
  message?: string;
  percentage?: number;
  ended: boolean;
  /** 1 for the first task begun in this tracker, 2 for the next, … (see `beginCount`) */
  seq: number;
}

type ProgressValue = WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd;

export const PROGRESS_LIMITS = { tasks: 256, chars: 256, shown: 20 } as const;

const cut = (text: string): string => keptText(text, PROGRESS_LIMITS.chars);

/** What session_status shows of the tasks: a bounded list, the count of all, the drops. */
export interface ProgressStatus {
  progress: { token: string; title: string; message?: string; percentage?: number }[];
  progress_active: number;
  progress_dropped: number;
}

/** At most this many earlier tasks wait for their ends under one token. */
const MAX_OVERLAPPING = 3;

export class ProgressTracker {
  private readonly tasks = new Map<string, ProgressTask>();
  /** `overlapping`: tasks begun earlier under a token whose newer task is in `tasks` */
  private readonly earlier = new Map<string, ProgressTask[]>();
  /** patterns seen begun at least once (for progress_required) */
  private everBegun: ProgressTask[] = [];
  private begins = 0;
  /** begins dropped at the bounds */
  private dropped = 0;

  constructor(private readonly overlapping: readonly RegExp[] = []) {}

  update(token: ProgressToken, value: unknown): ProgressTask | undefined {
    const v = value as Partial<ProgressValue> | null;
    if (!v || typeof v !== "object" || typeof v.kind !== "string") return undefined;
    const key = String(token);
    if (v.kind === "begin") {
      const over = key.length > PROGRESS_LIMITS.chars || this.tasks.size >= PROGRESS_LIMITS.tasks;
      if (over && !this.tasks.has(key)) {
        this.dropped += 1;
        return undefined;
      }
      const b = v as WorkDoneProgressBegin;
      this.begins += 1;
      const task: ProgressTask = {
        token: key,
        title: typeof b.title === "string" ? cut(b.title) : "",
        ended: false,
        seq: this.begins,
      };
      if (typeof b.message === "string") task.message = cut(b.message);
      if (typeof b.percentage === "number") task.percentage = b.percentage;
      const running = this.tasks.get(key);
      if (running !== undefined && matchesAny(running, this.overlapping)) {
        const waiting = [...(this.earlier.get(key) ?? []), running].slice(-MAX_OVERLAPPING);
        this.earlier.set(key, waiting);
      }
      this.tasks.set(key, task);
      this.everBegun.push(task);
      if (this.everBegun.length > 256) this.everBegun = this.everBegun.slice(-128);
      return task;
    }
    const task = this.tasks.get(key);
    if (!task) return undefined;
    if (v.kind === "report") {
      const r = v as WorkDoneProgressReport;
      if (typeof r.message === "string") task.message = cut(r.message);
      if (typeof r.percentage === "number") task.percentage = r.percentage;
    } else if (v.kind === "end") {
      const oldest = this.earlier.get(key)?.shift();
      if (oldest !== undefined) {
        oldest.ended = true;
        if (this.earlier.get(key)?.length === 0) this.earlier.delete(key);
        return oldest;
      }
      task.ended = true;
      this.tasks.delete(key);
    }
    return task;
  }

  active(): ProgressTask[] {
    const all = [...this.tasks.values(), ...[...this.earlier.values()].flat()];
    return all.sort((a, b) => (a.token < b.token ? -1 : a.token > b.token ? 1 : 0));
  }

  /** session_status's view: the first PROGRESS_LIMITS.shown active tasks, with counts. */
  status(): ProgressStatus {
    const active = this.active();
    return {
      progress: active.slice(0, PROGRESS_LIMITS.shown).map((t) => ({
        token: t.token,
        title: t.title,
        ...(t.message !== undefined ? { message: t.message } : {}),
        ...(t.percentage !== undefined ? { percentage: t.percentage } : {}),
      })),
      progress_active: active.length,
      progress_dropped: this.dropped,
    };
  }

  activeMatching(patterns: readonly RegExp[]): ProgressTask[] {
    return this.active().filter((t) => matchesAny(t, patterns));
  }

  /** A matching task has begun; with `since`, after that `beginCount` mark. */
  begunMatching(patterns: readonly RegExp[], since = 0): boolean {
    return this.everBegun.some((t) => t.seq > since && matchesAny(t, patterns));
  }

  /** How many tasks have begun so far: a mark for `endedMatching(patterns, mark)`. */
  get beginCount(): number {
    return this.begins;
  }

  /** A matching task has ended; with `since`, one that began after that `beginCount` mark. */
  endedMatching(patterns: readonly RegExp[], since = 0): boolean {
    return this.everBegun.some((t) => t.ended && t.seq > since && matchesAny(t, patterns));
  }

  clear(): void {
    this.tasks.clear();
    this.earlier.clear();
    this.everBegun = [];
    this.begins = 0;
    this.dropped = 0;
  }
}

export function matchesAny(task: ProgressTask, patterns: readonly RegExp[]): boolean {
  return patterns.some((p) => p.test(task.title) || p.test(task.token));
}
