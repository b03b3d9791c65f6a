/**
 * warmup_open (SPEC §3.3): open the first usable file, by sorted workspace-relative path,
 * that matches the glob. Dot-directories and node_modules are not searched. A matching
 * file the bridge cannot serve (too large, not UTF-8, unreadable, not a regular file) is
 * skipped and the next one tried: the warm-up never fails a session. What was skipped,
 * and whether the scan hit its bound, is reported in session_status.
 */
import { isBridgeError } from "../errors.ts";
import type { WorkspaceText } from "../workspace/confined.ts";
import { emptyReport, workspaceFiles } from "../workspace/scan.ts";
import type { Workspace } from "../workspace/workspace.ts";

/** Directory entries the scan looks at before it gives up (root = "/" must end). */
export const WARMUP_SCAN_ENTRIES = 100_000;
/** Matching files tried before giving up (each refused one may have cost a bounded read). */
export const WARMUP_CANDIDATES = 10;

export interface WarmupOutcome {
  pattern: string;
  /** the file opened, workspace-relative; null when none was usable */
  file: string | null;
  /** matching files passed over, in order, with the error code that refused them */
  skipped: { file: string; reason: string }[];
  scan: { entries: number; truncated: boolean; unreadable_dirs: number };
}

export async function findWarmupFile(
  workspace: Workspace,
  pattern: string,
): Promise<{ outcome: WarmupOutcome; opened?: WorkspaceText }> {
  const glob = new Bun.Glob(pattern);
  const report = emptyReport();
  const skipped: WarmupOutcome["skipped"] = [];
  let opened: WorkspaceText | undefined;
  const limits = { maxEntries: WARMUP_SCAN_ENTRIES };
  for await (const rel of workspaceFiles(workspace.rootReal, limits, report)) {
    if (!glob.match(rel)) continue;
    try {
      opened = workspace.read(rel);
      break;
    } catch (err) {
      skipped.push({ file: rel, reason: isBridgeError(err) ? err.code : String(err) });
      if (skipped.length >= WARMUP_CANDIDATES) break;
    }
  }
  const outcome: WarmupOutcome = {
    pattern,
    file: opened?.rel ?? null,
    skipped,
    scan: {
      entries: report.entries,
      truncated: report.truncated,
      unreadable_dirs: report.unreadableDirs,
    },
  };
  return opened ? { outcome, opened } : { outcome };
}
