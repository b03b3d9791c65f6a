/**
 * warmup_open (SPEC §3.3): the first usable file matching the glob, by sorted path, or
 * with `project_files` the match that best represents the project (warmup-rank.ts). A
 * file the bridge cannot serve is skipped and reported: the warm-up never fails a session.
 */
import { posix } from "node:path";
import { isBridgeError } from "../errors.ts";
import type { WorkspaceText } from "../workspace/confined.ts";
import { emptyReport, workspaceFiles } from "../workspace/scan.ts";
import { type Budget, MATCH_BUDGET } from "../workspace/spec-match.ts";
import { type ProjectSpec, parseProject, projectOwner } from "../workspace/tsconfig.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { compareRanks, isBestRank, type WarmupRank, warmupRank } from "./warmup-rank.ts";

/** Directory entries the scan looks at before it gives up (root = "/" must end). */
export const WARMUP_SCAN_ENTRIES = 100_000;
/** Matching files tried before giving up (each refused one may have cost a bounded read). */
export const WARMUP_CANDIDATES = 10;
/** Matching files ranked before the best so far is taken (project_files). */
export const WARMUP_RANKED = 5000;

export interface WarmupOutcome {
  pattern: string;
  /** the file opened, workspace-relative; null when none was usable */
  file: string | null;
  /** with project_files: the project file the opened file belongs to, null for none */
  project?: string | null;
  /** matching files passed over, in order, with the error code that refused them */
  skipped: { file: string; reason: string }[];
  scan: { entries: number; truncated: boolean; unreadable_dirs: number };
}

/** What ranks the matches: the server's project files, and a file's language's place among its languages. */
export interface ProjectChoice {
  files: readonly string[];
  language: (rel: string) => number;
}

function exists(workspace: Workspace, rel: string): boolean {
  try {
    workspace.resolve(rel);
    return true;
  } catch {
    return false;
  }
}

/** The project files of a workspace, each read once per warm-up (with what it extends). */
class Projects {
  private readonly byFile = new Map<string, ProjectSpec | null>();
  constructor(
    private readonly workspace: Workspace,
    private readonly names: readonly string[],
  ) {}

  /** The nearest project file of a file (its directory or one above, within the root). */
  of(rel: string): ProjectSpec | null {
    for (let dir = posix.dirname(rel); ; dir = posix.dirname(dir)) {
      const key = dir === "." ? "" : dir;
      for (const name of this.names) {
        const found = this.load(key === "" ? name : `${key}/${name}`);
        if (found !== null) return found;
      }
      if (key === "") return null;
    }
  }

  /** Whether a project holds the file, as tsserver looks for one (references, projects above). */
  includes(rel: string, budget: Budget): boolean {
    return projectOwner(rel, (file) => this.load(file), budget).owner !== null;
  }

  private load(file: string): ProjectSpec | null {
    const known = this.byFile.get(file);
    if (known !== undefined) return known;
    const read = (r: string) => this.workspace.tryRead(r)?.text;
    const text = read(file);
    // one that is there but cannot be read includes everything below it
    const found =
      text === undefined && !exists(this.workspace, file) ? null : parseProject(file, text, read);
    this.byFile.set(file, found);
    return found;
  }
}

/** Up to WARMUP_CANDIDATES matches, best rank first, scan order among equals. */
function insertRanked(best: { rel: string; rank: WarmupRank }[], rel: string, rank: WarmupRank) {
  let at = best.length;
  while (at > 0 && compareRanks(rank, (best[at - 1] as { rank: WarmupRank }).rank) < 0) at--;
  if (at < WARMUP_CANDIDATES) best.splice(at, 0, { rel, rank });
  if (best.length > WARMUP_CANDIDATES) best.pop();
}

export async function findWarmupFile(
  workspace: Workspace,
  pattern: string,
  choice?: ProjectChoice,
): Promise<{ outcome: WarmupOutcome; opened?: WorkspaceText }> {
  const glob = new Bun.Glob(pattern);
  const report = emptyReport();
  const skipped: WarmupOutcome["skipped"] = [];
  const projects = choice ? new Projects(workspace, choice.files) : undefined;
  const budget: Budget = { left: MATCH_BUDGET };
  let opened: WorkspaceText | undefined;
  const tryOpen = (rel: string): boolean => {
    try {
      opened = workspace.read(rel);
      return true;
    } catch (err) {
      skipped.push({ file: rel, reason: isBridgeError(err) ? err.code : String(err) });
      return false;
    }
  };
  const limits = { maxEntries: WARMUP_SCAN_ENTRIES };
  const ranked: { rel: string; rank: WarmupRank }[] = [];
  let matches = 0;
  for await (const rel of workspaceFiles(workspace.rootReal, limits, report)) {
    if (!glob.match(rel)) continue;
    if (!choice || !projects) {
      if (tryOpen(rel) || skipped.length >= WARMUP_CANDIDATES) break;
      continue;
    }
    const included = projects.includes(rel, budget);
    const rank = warmupRank(rel, included, choice.language(rel));
    insertRanked(ranked, rel, rank);
    if (isBestRank(rank) || ++matches >= WARMUP_RANKED) break;
  }
  for (const { rel } of ranked) if (tryOpen(rel)) break;
  const { entries, truncated, unreadableDirs: unreadable_dirs } = report;
  const outcome: WarmupOutcome = {
    pattern,
    file: opened?.rel ?? null,
    ...(projects ? { project: opened ? (projects.of(opened.rel)?.file ?? null) : null } : {}),
    skipped,
    scan: { entries, truncated, unreadable_dirs },
  };
  return opened ? { outcome, opened } : { outcome };
}
