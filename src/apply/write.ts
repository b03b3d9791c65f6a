/**
 * The only write path of the bridge (SPEC §7.4, §8.1). Phases:
 *  1. check every target: opened beneath the root through a directory handle (confined,
 *     existing, regular), unchanged since the edits were computed, replaceable by the
 *     bridge's user (mode and owner, apply/writable.ts) without splitting it (one name, no
 *     immutable or append-only flag on it or its directory); what it carries is read;
 *  2. write the intent record (journal.ts), then a filled, fsynced temp file beside every
 *     target, carrying what the target carries — a failure here removes them all;
 *  3. swap each temp file in (replace.ts: the replaced file stays reachable) and check that
 *     what was replaced is the file that was checked, with the same text: another writer's
 *     edit that landed after phase 1 puts everything back (WorkspaceDrift); then the commit
 *     mark, and the replaced files are removed.
 * A bridge killed anywhere in 2–3 leaves a record the next start finishes or undoes
 * (recover.ts).
 *
 * File operations are synchronous on purpose: an apply runs to completion without yielding
 * to the event loop, so two applies can never interleave.
 */

import { closeSync, fstatSync, type Stats } from "node:fs";
import { dirname } from "node:path";
import { type BridgeError, isBridgeError } from "../errors.ts";
import { getFlags } from "../ffi/file-attributes.ts";
import { OPEN, openAt } from "../ffi/syscalls.ts";
import { log } from "../log.ts";
import { decodeUtf8, openWorkspaceFileInDir, readBounded } from "../workspace/confined.ts";
import { sha256Hex } from "../workspace/files.ts";
import { displayPath, type WorkspaceRoot } from "../workspace/paths.ts";
import {
  type Carried,
  discardReplacement,
  prepareReplacement,
  readCarried,
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
import type { PlannedWrite } from "./validate.ts";
import { versionControlPart } from "./vcs.ts";
import { bridgeUser, replaceRefusal, writeRefusal } from "./writable.ts";

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

interface Target {
  plan: PlannedWrite;
  /** real path inside the workspace (symlinks resolved) */
  abs: string;
  rel: string;
  /** handle on the verified directory holding the target, and its name there */
  dirFd: number;
  name: string;
  stat: Stats;
  carried: Carried;
  /** the apply's own names beside the target */
  tmp: string;
  bak: string;
  /** set once the temp file is swapped in */
  swap?: Swap;
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
): Promise<{ written: string[] }> {
  const targets: Target[] = [];
  try {
    checkTargets(ws, plans, maxFileBytes, targets);
    const changed = targets.filter((t) => t.plan.newText !== t.plan.oldText);
    if (changed.length === 0) return { written: [] };
    const record = journal.begin(ws.rootReal, changed.map(recordEntry));
    try {
      prepareAll(changed);
      commitAll(changed, hooks, maxFileBytes, record);
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
    new: sha256Hex(Buffer.from(t.plan.newText, "utf8")),
  };
}

/** The apply is over, every file old or every file new: its side files and record go. */
function endRecord(record: IntentRecord, changed: Target[]): void {
  const left = cleanUp(changed);
  if (left.length > 0) log.warn(`apply: could not remove ${left.join(", ")}`);
  record.end();
}

/** Phase 1: every check for every target, before the first write. */
function checkTargets(
  ws: WorkspaceRoot,
  plans: PlannedWrite[],
  maxFileBytes: number,
  targets: Target[],
): void {
  const seen = new Set<string>();
  const drifted: string[] = [];
  const refused: { file: string; reason: string }[] = [];
  const user = bridgeUser();
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
        plan,
        abs,
        rel,
        dirFd,
        name,
        stat,
        ...sideNames(name),
        carried: NONE,
      };
      targets.push(target);
      const identity = `${stat.dev}:${stat.ino}`;
      if (seen.has(identity)) throw targetInvalid(rel, "the same file is targeted more than once");
      const vcs = versionControlPart(rel);
      if (vcs !== undefined) throw vcsTarget(rel, vcs);
      seen.add(identity);
      if (!unchangedSince(fd, stat, plan.oldSha256, maxFileBytes, abs)) {
        drifted.push(rel);
        continue;
      }
      const reason =
        writeRefusal(stat, fstatSync(dirFd), user) ??
        replaceRefusal({ nlink: stat.nlink, flags: getFlags(fd), dirFlags: getFlags(dirFd) }) ??
        carriedRefusal(fd, target);
      if (reason !== undefined) refused.push({ file: rel, reason });
    } finally {
      closeSync(fd);
    }
  }
  if (drifted.length > 0) throw driftedError(drifted, "since the edits were computed");
  if (refused.length > 0) throw refusedError(refused);
}

const NONE: Carried = { flags: 0, xattrs: new Map() };

/** Read what the file carries into `target`; why it cannot be, or undefined. */
function carriedRefusal(fd: number, target: Target): string | undefined {
  try {
    target.carried = readCarried(fd);
    return undefined;
  } catch (err) {
    return `its attributes cannot be read to carry them over (${describeError(err)})`;
  }
}

/** Does the open file still hash to what the edits were computed against? */
function unchangedSince(
  fd: number,
  stat: Stats,
  sha256: string,
  maxFileBytes: number,
  abs: string,
): boolean {
  try {
    const data = readBounded(fd, stat.size, maxFileBytes, abs);
    decodeUtf8(data, abs);
    return sha256Hex(data) === sha256;
  } catch (err) {
    // It was readable, within bounds and UTF-8 when the plan was made: any of these now means it changed.
    if (isBridgeError(err, "FileTooLarge") || isBridgeError(err, "NotUtf8")) return false;
    throw err;
  }
}

/** Phase 2: a filled temp file beside every changed target; a failure writes nothing. */
function prepareAll(changed: Target[]): void {
  for (const target of changed) {
    try {
      const data = Buffer.from(target.plan.newText, "utf8");
      prepareReplacement(target.dirFd, target.tmp, data, target.stat, target.carried);
    } catch (err) {
      throw prepareFailed(target.rel, describeError(err));
    }
  }
}

/**
 * Is the file `swap.old` names the one phase 1 checked, with the text the edit was
 * computed against? (A rename over the target meanwhile put another file there; a write
 * into it changed its text.)
 */
function replacedAsChecked(t: Target, swap: Swap, maxFileBytes: number): boolean {
  let fd: number;
  try {
    fd = openAt(t.dirFd, swap.old, OPEN.readFile);
  } catch {
    return false;
  }
  try {
    const stat = fstatSync(fd);
    // an inode number is reused at once after a delete: the type and text decide too
    if (!stat.isFile() || stat.dev !== t.stat.dev || stat.ino !== t.stat.ino) return false;
    return unchangedSince(fd, stat, t.plan.oldSha256, maxFileBytes, t.abs);
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/**
 * Phase 3: swap every temp file in, each checked right after, then the commit mark; on a
 * changed file or a failure every file already swapped is put back first.
 */
function commitAll(
  changed: Target[],
  hooks: ApplyHooks,
  maxFileBytes: number,
  record: IntentRecord,
): void {
  for (const [index, target] of changed.entries()) {
    try {
      hooks.beforeReplace?.(target.abs, index);
      const exchange = hooks.withoutExchange !== true;
      target.swap = swapIn(target.dirFd, target.tmp, target.name, target.bak, exchange);
      hooks.afterSwap?.(target.abs, index);
    } catch (err) {
      // the target gone meanwhile is another writer's doing, like a changed one
      throw undoAfter(changed, target, err, errnoOf(err) === "ENOENT");
    }
    if (!replacedAsChecked(target, target.swap, maxFileBytes)) {
      throw undoAfter(changed, target, undefined, true);
    }
  }
  // every replaced file once more, right before the commit: a write through a descriptor
  // opened before the apply lands in the replaced file, and is caught up to here
  for (const target of changed) {
    if (!replacedAsChecked(target, target.swap as Swap, maxFileBytes)) {
      throw undoAfter(changed, target, undefined, true);
    }
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
 * changed `target` and everything is back, else ApplyFailed saying what could not be.
 */
function undoAfter(changed: Target[], target: Target, cause: unknown, drift: boolean): BridgeError {
  const what = drift
    ? `${target.rel} changed while the apply ran (another writer)`
    : `writing ${target.rel} failed`;
  const undone = rollBack(changed, what, target.rel, cause);
  if (drift && !changed.some((t) => t.swap !== undefined)) {
    return driftedError([target.rel], "while the apply ran (another writer)");
  }
  return undone;
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
    // a swapped-in temp file is the target now: only the other names are ours
    const ours = t.swap === undefined ? [t.tmp, t.bak] : [t.swap.old];
    for (const entry of ours) {
      if (!discardReplacement(t.dirFd, entry)) left.push(`${dirname(t.rel)}/${entry}`);
    }
  }
  return left;
}
