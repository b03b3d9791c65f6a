/**
 * The only write path of the bridge (SPEC §7.4, §8.1). Phases:
 *  1. check every target: opened beneath the root through a directory handle (confined,
 *     existing, regular), unchanged since the edits were computed, replaceable by the
 *     bridge's user (mode and owner, apply/writable.ts) without splitting it (one name, no
 *     immutable or append-only flag on it or its directory); what it carries is read;
 *  2. write the intent record (journal.ts), then a filled, fsynced temp file beside every
 *     target, carrying what the target carries — a failure here removes them all;
 *  3. swap each temp file in (replace.ts: the replaced file stays reachable) and check that
 *     what was replaced is the file phase 1 checked, as it was (target-check.ts): another
 *     writer's change that landed after phase 1 puts everything back; then the commit mark,
 *     and the replaced files are removed.
 * A bridge killed in 2–3 leaves a record the next start finishes or undoes (recover.ts).
 * Files go one at a time through one read buffer, with a turn of the event loop between
 * two in phases 1 and 2 (lane.ts); the swaps take none: once one file is swapped, the
 * apply ends, written or put back, before the bridge does anything else.
 */

import { closeSync, fstatSync } from "node:fs";
import { dirname } from "node:path";
import { type BridgeError, isBridgeError } from "../errors.ts";
import { OPEN, openAt } from "../ffi/syscalls.ts";
import { log } from "../log.ts";
import { openWorkspaceFileInDir, type ReadBuffer } from "../workspace/confined.ts";
import { displayPath, type WorkspaceRoot } from "../workspace/paths.ts";
import {
  discardReplaced,
  discardReplacement,
  prepareReplacement,
  type Swap,
  sideNames,
  swapBack,
  swapIn,
  syncDirectory,
} from "../workspace/replace.ts";
import {
  describeError,
  driftedError,
  prepareFailed,
  refusedError,
  rolledBackError,
  targetInvalid,
  vcsTarget,
} from "./apply-errors.ts";
import type { ApplyJournal, IntentRecord, RecordEntry } from "./journal.ts";
import { ApplyLane } from "./lane.ts";
import {
  checkOpened,
  hashParts,
  type Mismatch,
  readOrNothing,
  replacedMismatch,
  type Target,
} from "./target-check.ts";
import { type PlannedWrite, writtenParts } from "./validate.ts";
import { versionControlPart } from "./vcs.ts";

/** Test seams, called synchronously after all checks passed. */
export interface ApplyHooks {
  /** right before each file is swapped in */
  beforeReplace?: (abs: string, index: number) => void;
  /** right after each file was swapped in, before what it replaced is checked */
  afterSwap?: (abs: string, index: number) => void;
  /** once the commit mark is written, before the replaced files are removed */
  afterCommit?: () => void;
  /** take the path of a file system without RENAME_EXCHANGE (a hard link, then a rename) */
  withoutExchange?: boolean;
}

/** What one apply works with besides its targets. */
interface Run {
  maxFileBytes: number;
  lane: ApplyLane;
  hooks: ApplyHooks;
  /** every file is read into this one buffer */
  buffer: ReadBuffer;
}

/**
 * Check every target, then write them all; the real paths of the files whose content
 * changed (unchanged texts are checked, not rewritten). Errors: `EditInvalid` (a target
 * escapes the workspace or is listed twice), `WorkspaceDrift` (a target changed since the
 * edits were computed, before or during the apply; details.files), `ApplyFailed` (a target
 * the bridge may not replace, or a failed write; details `{failed, error, restored,
 * written}`, `written` listing files that could not be restored). Nothing is written
 * unless all checks pass; no temp file is left on any path a live bridge takes.
 */
export async function applyPlannedWrites(
  ws: WorkspaceRoot,
  plans: PlannedWrite[],
  maxFileBytes: number,
  journal: ApplyJournal,
  hooks: ApplyHooks = {},
  /** the turns between files; the caller's lane when it runs the apply in one */
  lane: ApplyLane = new ApplyLane(),
): Promise<{ written: string[] }> {
  const targets: Target[] = [];
  const run: Run = { maxFileBytes, lane, hooks, buffer: { buffer: Buffer.alloc(0) } };
  try {
    await checkTargets(ws, plans, run, targets);
    const changed = targets.filter((t) => t.plan.changed);
    if (changed.length === 0) return { written: [] };
    const record = journal.begin(ws.rootReal, changed.map(recordEntry));
    try {
      await prepareAll(changed, run);
      commitAll(changed, run, record);
    } catch (err) {
      // a file that could not be put back keeps its record: the next start undoes the apply
      if (changed.some((t) => t.swap !== undefined)) record.abandon();
      else endRecord(record, changed);
      throw err;
    }
    endRecord(record, changed);
    return { written: changed.map((t) => t.abs) };
  } finally {
    for (const t of targets) closeSync(t.dirFd);
  }
}

function recordEntry(t: Target): RecordEntry {
  const dir = dirname(t.rel);
  return {
    dir: dir === "." ? "" : dir,
    name: t.name,
    tmp: t.tmp,
    bak: t.bak,
    old: t.plan.oldSha256,
    new: t.newSha256,
  };
}

/** The apply is over, every file old or every file new: its side files and record go. */
function endRecord(record: IntentRecord, changed: Target[]): void {
  const left = cleanUp(changed);
  if (left.length > 0) log.warn(`apply: could not remove ${left.join(", ")}`);
  record.end();
}

/** Phase 1: every check for every target, before the first write. */
async function checkTargets(
  ws: WorkspaceRoot,
  plans: PlannedWrite[],
  run: Run,
  targets: Target[],
): Promise<void> {
  const seen = new Set<string>();
  const drifted: string[] = [];
  const refused: { file: string; reason: string }[] = [];
  for (const plan of plans) {
    let opened: ReturnType<typeof openWorkspaceFileInDir>;
    try {
      opened = openWorkspaceFileInDir(ws.rootReal, plan.abs, OPEN.dirHandle);
    } catch (err) {
      // An edit aimed outside the workspace is a bad edit set, not a bad tool argument.
      if (isBridgeError(err, "PathOutsideWorkspace")) {
        throw targetInvalid(displayPath(ws, plan.abs), err.message);
      }
      // The plan was computed from this file's text, so it was a readable file then.
      if (isBridgeError(err, "FileNotFound")) {
        drifted.push(displayPath(ws, plan.abs));
        continue;
      }
      throw err;
    }
    const { fd, stat, dirFd, name, abs, rel } = opened;
    try {
      const target: Target = {
        ...{ plan, abs, rel, dirFd, name, stat, flags: 0, carried: NONE, newSha256: "" },
        ...sideNames(name),
      };
      targets.push(target);
      const identity = `${stat.dev}:${stat.ino}`;
      if (seen.has(identity)) throw targetInvalid(rel, "the same file is targeted more than once");
      const vcs = versionControlPart(rel);
      if (vcs !== undefined) throw vcsTarget(rel, vcs);
      seen.add(identity);
      const found = checkOpened(target, fd, run.maxFileBytes, run.buffer);
      if (found === "drift") drifted.push(rel);
      else if (found !== undefined) refused.push({ file: rel, reason: found });
    } finally {
      closeSync(fd);
    }
    await run.lane.between();
  }
  if (drifted.length > 0) throw driftedError(drifted, "since the edits were computed");
  if (refused.length > 0) throw refusedError(refused);
}

const NONE = { flags: 0, xattrs: new Map<string, Uint8Array>() };

/**
 * Phase 2: a filled temp file beside every changed target, one at a time; a failure writes
 * nothing. The new bytes are made from the target's bytes read again now (the text phase 1
 * hashed, or the apply is drift), and their hash must be the one the record holds.
 */
async function prepareAll(changed: Target[], run: Run): Promise<void> {
  for (const target of changed) {
    let parts: Uint8Array[] | undefined;
    try {
      parts = partsToWrite(target, run);
      if (parts !== undefined) {
        prepareReplacement(target.dirFd, target.tmp, parts, target.stat, target.carried);
        if (hashParts(parts) !== target.newSha256) throw new Error("the new bytes changed");
      }
    } catch (err) {
      throw prepareFailed(target.rel, describeError(err));
    }
    if (parts === undefined) throw driftedError([target.rel], "while the apply ran");
    await run.lane.between();
  }
}

/** The bytes to write for `t`, from its bytes as they are; undefined when they changed. */
function partsToWrite(t: Target, run: Run): Uint8Array[] | undefined {
  let fd: number;
  try {
    fd = openAt(t.dirFd, t.name, OPEN.readFile);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.dev !== t.stat.dev || stat.ino !== t.stat.ino) return undefined;
    const data = readOrNothing(fd, stat.size, run.maxFileBytes, t.abs, run.buffer);
    if (data === undefined || hashParts([data]) !== t.plan.oldSha256) return undefined;
    return writtenParts(data, t.plan.pieces);
  } finally {
    closeSync(fd);
  }
}

/**
 * Phase 3: swap every temp file in, each checked right after, then the commit mark; on a
 * changed file or a failure every file already swapped is put back first.
 */
function commitAll(changed: Target[], run: Run, record: IntentRecord): void {
  const { hooks } = run;
  for (const [index, target] of changed.entries()) {
    try {
      hooks.beforeReplace?.(target.abs, index);
      const exchange = hooks.withoutExchange !== true;
      target.swap = swapIn(target.dirFd, target.tmp, target.name, target.bak, exchange);
      hooks.afterSwap?.(target.abs, index);
    } catch (err) {
      // the target gone meanwhile is another writer's doing, like a changed one
      const gone = errnoOf(err) === "ENOENT";
      throw undoAfter(changed, target, gone ? { drift: true, reason: "it is gone" } : err);
    }
    const mismatch = replacedMismatch(target, target.swap, run.maxFileBytes, run.buffer);
    if (mismatch !== undefined) throw undoAfter(changed, target, mismatch);
  }
  // every replaced file once more, right before the commit: a write through a descriptor
  // opened before the apply, or a link whose lookup began before the swap, lands in the
  // replaced file, and is caught up to here
  for (const target of changed) {
    const mismatch = replacedMismatch(target, target.swap as Swap, run.maxFileBytes, run.buffer);
    if (mismatch !== undefined) throw undoAfter(changed, target, mismatch);
  }
  try {
    for (const dirFd of new Set(changed.map((t) => t.dirFd))) syncDirectory(dirFd);
    record.committed();
  } catch (err) {
    throw rollBack(changed, "recording the finished apply failed", "", err);
  }
  hooks.afterCommit?.();
}

/**
 * Every file swapped in put back; the error to answer: WorkspaceDrift when another writer
 * changed `target`'s text or identity and everything is back, else ApplyFailed saying what
 * happened (a property the replacement relies on changed, a failed swap) and what could not
 * be put back.
 */
function undoAfter(changed: Target[], target: Target, cause: Mismatch | unknown): BridgeError {
  const mismatch = isMismatch(cause) ? cause : undefined;
  const what =
    mismatch !== undefined
      ? `${target.rel} changed while the apply ran (another writer)`
      : `writing ${target.rel} failed`;
  const error = mismatch !== undefined ? new Error(mismatch.reason) : cause;
  const undone = rollBack(changed, what, target.rel, error);
  if (mismatch?.drift === true && !changed.some((t) => t.swap !== undefined)) {
    return driftedError([target.rel], "while the apply ran (another writer)");
  }
  return undone;
}

function isMismatch(value: unknown): value is Mismatch {
  return typeof value === "object" && value !== null && "drift" in value && "reason" in value;
}

function errnoOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/** Put back every file swapped in, newest first, and describe what happened. */
function rollBack(changed: Target[], what: string, failed: string, cause: unknown): BridgeError {
  const restored: string[] = [];
  const stillWritten: string[] = [];
  for (const target of [...changed].reverse()) {
    const swap = target.swap;
    if (swap === undefined) continue;
    try {
      swapBack(target.dirFd, swap, target.name);
      syncDirectory(target.dirFd);
      target.swap = undefined;
      restored.push(target.rel);
    } catch {
      stillWritten.push(target.rel);
    }
  }
  const error = cause === undefined ? "changed while the apply ran" : describeError(cause);
  return rolledBackError(what, failed, error, restored, stillWritten);
}

/**
 * Remove every name the apply made beside its targets that still exists: the temp files
 * (never swapped, or holding the new text again after a rollback) and the replaced files
 * (after a commit). The names that could not be removed.
 */
function cleanUp(changed: Target[]): string[] {
  const left: string[] = [];
  for (const t of changed) {
    if (t.swap === undefined) {
      for (const entry of [t.tmp, t.bak]) {
        if (!discardReplacement(t.dirFd, entry)) left.push(`${dirname(t.rel)}/${entry}`);
      }
      continue;
    }
    // a swapped-in temp file is the target now: only the replaced file's name is ours
    const names = discardReplaced(t.dirFd, t.swap.old);
    if (names === undefined) left.push(`${dirname(t.rel)}/${t.swap.old}`);
    else if (names > 0) {
      log.warn(
        `apply: ${t.rel} gained a hard link while it was replaced: ${names} other name(s) keep its old text (SPEC §7.4)`,
      );
    }
  }
  return left;
}
