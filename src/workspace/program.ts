/**
 * One session's view of which workspace files its server sees as part of the whole
 * program (SPEC §4.3 `outside_program`): the configuration read beneath the root, parsed
 * once per version of each file (kept by identity), and the decision of program-rules.ts.
 * `outside(rel)` answers for a call's file, its decision kept with what it looked at and
 * reused while each of those shows the identity it had (one stat each, no parse, no match);
 * `survey()` for the workspace (workspace-wide answers): a bounded scan of the files the
 * server serves, kept until files come or go or a configuration file changes
 * (`noteChanges`), since those alone change its outcome.
 */
import { existsSync, statSync } from "node:fs";
import { join, posix } from "node:path";
import { compileDatabaseFiles } from "./compile-commands.ts";
import { type FileIdentity, readWorkspaceText, type WorkspaceText } from "./confined.ts";
import type { FileChange } from "./file-events.ts";
import {
  type OutsideProgram,
  outsideReason,
  type ProgramFormat,
  type ProgramInputs,
} from "./program-rules.ts";
import { pythonProgram, VENV_MARKERS } from "./pyright-config.ts";
import { MAX_CHECKED_BYTES } from "./requirements.ts";
import { emptyReport, workspaceFiles } from "./scan.ts";
import { MATCH_BUDGET } from "./spec-match.ts";
import { parseProject, type ReadText } from "./tsconfig.ts";
import type { Workspace } from "./workspace.ts";

/** Files outside the program an answer names at most (`outside_program_total` counts all). */
export const OUTSIDE_NAMED = 8;
/** Directory entries a survey looks at before it stops (as the warm-up, SPEC §3.3). */
export const SURVEY_ENTRIES = 100_000;
/** Parsed configuration files kept at most. */
const MAX_KEPT = 1024;
/** A change to such a file may change what the configuration says. */
const CONFIGURATION = /\.(?:json|toml)$/;

export interface ProgramSurvey {
  /** the first files outside the program, in sorted order, at most OUTSIDE_NAMED */
  files: OutsideProgram[];
  /** how many the scan found */
  total: number;
}

/** A call's file decided: what the decision looked at, each with what it showed then. */
interface Decided {
  looked: Map<string, string>;
  result: OutsideProgram | null;
}

/** Keys of `Decided.looked` that are an existence probe (a virtual environment's marker). */
const EXISTS = "\0exists ";

export class Program {
  private readonly kept = new Map<string, { deps: Map<string, string>; value: unknown }>();
  /** call files decided: the decision is a pure function of what it looked at */
  private readonly decided = new Map<string, Decided>();
  /** while a decision runs: what it looks at (null: none runs) */
  private looking: Map<string, string> | null = null;
  /** a file looked at twice in one decision showed two identities: not kept */
  private unsteady = false;
  private stamp = 0;
  private surveyed: { stamp: number; result: Promise<ProgramSurvey> } | undefined;

  constructor(
    private readonly workspace: Workspace,
    private readonly format: ProgramFormat | null,
    /** whether the server serves a workspace-relative file */
    private readonly serves: (rel: string) => boolean,
  ) {}

  /**
   * The call's file, when its server does not see it as part of the program. The decision
   * reads nothing but the files it looks at (their identities, and texts kept by identity)
   * and existence probes: while each shows what it showed, it is the same decision.
   */
  outside(rel: string): OutsideProgram | null {
    const format = this.format;
    if (format === null || !this.serves(rel)) return null;
    const kept = this.decided.get(rel);
    if (kept !== undefined && this.unchanged(kept.looked)) return kept.result;
    const looked = new Map<string, string>();
    this.looking = looked;
    this.unsteady = false;
    let reason: string | null;
    try {
      reason = outsideReason(format, rel, this.inputs(), { left: MATCH_BUDGET });
    } finally {
      this.looking = null;
    }
    const result = reason === null ? null : { file: rel, reason };
    if (this.decided.size >= MAX_KEPT) this.decided.clear();
    if (this.unsteady) this.decided.delete(rel);
    else this.decided.set(rel, { looked, result });
    return result;
  }

  /** Whether everything a decision looked at shows what it showed then. */
  private unchanged(looked: ReadonlyMap<string, string>): boolean {
    for (const [key, was] of looked) {
      const now = key.startsWith(EXISTS) ? this.exists(key.slice(EXISTS.length)) : this.stat(key);
      if (now !== was) return false;
    }
    return true;
  }

  /** What a decision looked at, noted while one runs. */
  private note(key: string, value: string): string {
    const looking = this.looking;
    if (looking !== null) {
      const before = looking.get(key);
      if (before !== undefined && before !== value) this.unsteady = true;
      else looking.set(key, value);
    }
    return value;
  }

  private exists(abs: string): string {
    return existsSync(abs) ? "1" : "";
  }

  /** What the session's watcher delivered: files that came or went, configuration changed. */
  noteChanges(changes: readonly FileChange[]): void {
    if (changes.some((c) => c.kind !== "changed" || CONFIGURATION.test(c.abs))) this.stamp++;
  }

  /** The workspace's files outside the program (cached until `noteChanges` says otherwise). */
  survey(): Promise<ProgramSurvey> {
    if (this.format === null) return Promise.resolve({ files: [], total: 0 });
    if (this.surveyed?.stamp !== this.stamp) {
      this.surveyed = { stamp: this.stamp, result: this.scan(this.format) };
    }
    return this.surveyed.result;
  }

  private async scan(format: ProgramFormat): Promise<ProgramSurvey> {
    const inputs = this.inputs(new Map());
    const budget = { left: MATCH_BUDGET };
    const out: ProgramSurvey = { files: [], total: 0 };
    const limits = { maxEntries: SURVEY_ENTRIES };
    for await (const rel of workspaceFiles(this.workspace.rootReal, limits, emptyReport())) {
      if (!this.serves(rel)) continue;
      const reason = outsideReason(format, rel, inputs, budget);
      if (reason === null) continue;
      out.total++;
      if (out.files.length < OUTSIDE_NAMED) out.files.push({ file: rel, reason });
    }
    return out;
  }

  /**
   * The configuration as the decision reads it; `memo` (one survey's) keeps each answer
   * for the whole question instead of looking at the file's identity again.
   */
  private inputs(memo?: Map<string, unknown>): ProgramInputs {
    const once = <T>(key: string, get: () => T): T => {
      if (memo === undefined) return get();
      if (!memo.has(key)) memo.set(key, get());
      return memo.get(key) as T;
    };
    const ws = this.workspace;
    const dbDir = ws.config.file_dirs["compile_commands.json"];
    const dbName =
      dbDir === undefined ? "compile_commands.json" : posix.join(dbDir, "compile_commands.json");
    const dbAbs = join(ws.rootReal, dbDir ?? "");
    return {
      project: (file) =>
        once(`project ${file}`, () =>
          this.cached(`project ${file}`, (read) => {
            const text = read(file);
            // one that is there but cannot be read includes everything below it
            if (text === undefined && this.identity(file) === "") return null;
            return parseProject(file, text, read);
          }),
        ),
      database: () =>
        once("database", () =>
          this.cached(
            "database",
            (read) => {
              const text = read(dbName);
              const files = text === undefined ? null : compileDatabaseFiles(text, dbAbs);
              return files === null ? null : { name: dbName, files };
            },
            MAX_CHECKED_BYTES,
          ),
        ),
      spellings: (rel) => [join(ws.root, rel), join(ws.rootReal, rel)],
      python: () => once("python", () => this.cached("python", (read) => pythonProgram(read))),
      isVenv: (dir) =>
        once(`venv ${dir}`, () =>
          VENV_MARKERS.some((m) => {
            const abs = join(ws.rootReal, dir, m);
            return this.note(EXISTS + abs, this.exists(abs)) !== "";
          }),
        ),
    };
  }

  /**
   * What `compute` makes of the files it reads, kept while none of them changed (a file
   * that was absent appearing counts); the files are read beneath the root, at most
   * `maxBytes` each (by default bridge.max_file_bytes).
   */
  private cached<T>(key: string, compute: (read: ReadText) => T, maxBytes?: number): T {
    const kept = this.kept.get(key);
    if (kept && [...kept.deps].every(([rel, id]) => this.identity(rel) === id)) {
      return kept.value as T;
    }
    const deps = new Map<string, string>();
    const read = (rel: string): string | undefined => {
      const now = this.identity(rel);
      let text: WorkspaceText | undefined;
      if (now !== "") {
        try {
          text =
            maxBytes === undefined
              ? this.workspace.read(rel)
              : readWorkspaceText(this.workspace.rootReal, rel, maxBytes);
        } catch {
          text = undefined;
        }
      }
      deps.set(rel, now);
      return text?.text;
    };
    const value = compute(read);
    if (this.kept.size >= MAX_KEPT) this.kept.clear();
    this.kept.set(key, { deps, value });
    return value;
  }

  /**
   * What the file is now, to tell a kept parse still holds ("" for no regular file): one
   * stat, no error raised for the many project files that are not there. What is read is
   * read beneath the root all the same.
   */
  private identity(rel: string): string {
    return this.note(rel, this.stat(rel));
  }

  private stat(rel: string): string {
    const st = statSync(join(this.workspace.rootReal, rel), { throwIfNoEntry: false });
    return st?.isFile() ? identityKey(st) : "";
  }
}

function identityKey(
  id: Pick<FileIdentity, "dev" | "ino" | "size" | "mtimeMs" | "ctimeMs">,
): string {
  return `${id.dev}:${id.ino}:${id.size}:${id.mtimeMs}:${id.ctimeMs}`;
}

export type { OutsideProgram, ProgramFormat } from "./program-rules.ts";
