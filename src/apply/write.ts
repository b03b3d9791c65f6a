/**
 * The only write path of the bridge (SPEC §7.4, §8.1). Three phases:
 *  1. check every target: opened beneath the root through a directory handle
 *     (confined, existing, regular), unchanged since the edits were computed,
 *     and replaceable by the bridge's user (mode and owner, apply/writable.ts);
 *  2. prepare a filled, fsynced temp file beside every target, inside the
 *     verified directory handle — a failure here removes them all: nothing written;
 *  3. rename each temp file over its target within the same handle, then fsync
 *     the directories. A rename failing part-way puts back every file already
 *     replaced, the same atomic way.
 *
 * File operations are synchronous on purpose: an apply runs to completion
 * without yielding to the event loop, so two applies can never interleave.
 */

import { closeSync, fstatSync, type Stats } from "node:fs";
import { BridgeError, isBridgeError } from "../errors.ts";
import { OPEN } from "../ffi/syscalls.ts";
import { decodeUtf8, openWorkspaceFileInDir, readBounded } from "../workspace/confined.ts";
import { sha256Hex } from "../workspace/files.ts";
import { displayPath, type WorkspaceRoot } from "../workspace/paths.ts";
import {
  commitReplacement,
  discardReplacement,
  prepareReplacement,
  syncDirectory,
} from "../workspace/replace.ts";
import type { PlannedWrite } from "./validate.ts";
import { bridgeUser, writeRefusal } from "./writable.ts";

/** Test seam: called synchronously right before each file's rename, after all checks passed. */
export interface ApplyHooks {
  beforeReplace?: (abs: string, index: number) => void;
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
  /** the prepared temp file, between phases 2 and 3 */
  tmp?: string;
}

/**
 * Check every target, then write them all; the real paths of the files whose content
 * changed (unchanged texts are checked, not rewritten). Errors: `EditInvalid` (a target
 * escapes the workspace or is listed twice), `WorkspaceDrift` (a target changed since the
 * edits were computed, or is gone; details.files), `ApplyFailed` (a target the bridge may
 * not replace, or a failed write; details `{failed, error, restored, written}`, `written`
 * listing files that could not be restored). Nothing is written unless all checks pass;
 * no temp file is left on any path.
 */
export async function applyPlannedWrites(
  ws: WorkspaceRoot,
  plans: PlannedWrite[],
  maxFileBytes: number,
  hooks: ApplyHooks = {},
): Promise<{ written: string[] }> {
  const targets: Target[] = [];
  try {
    checkTargets(ws, plans, maxFileBytes, targets);
    const changed = targets.filter((t) => t.plan.newText !== t.plan.oldText);
    prepareAll(changed);
    commitAll(changed, hooks);
    return { written: changed.map((t) => t.abs) };
  } finally {
    for (const t of targets) {
      if (t.tmp !== undefined) discardReplacement(t.dirFd, t.tmp);
      closeSync(t.dirFd);
    }
  }
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
      targets.push({ plan, abs, rel, dirFd, name, stat });
      const identity = `${stat.dev}:${stat.ino}`;
      if (seen.has(identity)) throw targetInvalid(rel, "the same file is targeted more than once");
      seen.add(identity);
      if (!unchangedSince(fd, stat, plan.oldSha256, maxFileBytes, abs)) {
        drifted.push(rel);
        continue;
      }
      const reason = writeRefusal(stat, fstatSync(dirFd), user);
      if (reason !== undefined) refused.push({ file: rel, reason });
    } finally {
      closeSync(fd);
    }
  }
  if (drifted.length > 0) {
    throw new BridgeError(
      "WorkspaceDrift",
      `${drifted.length} file(s) changed since the edits were computed; nothing was written`,
      {
        hint: "request the code actions or the rename again on the current files",
        details: { files: drifted },
      },
    );
  }
  const first = refused[0];
  if (first !== undefined) {
    throw new BridgeError(
      "ApplyFailed",
      `${refused.length} file(s) may not be replaced (${first.file}: ${first.reason}); nothing was written`,
      {
        hint: "make the files writable for the bridge's user (mode and owner), or leave them alone",
        details: { failed: first.file, error: first.reason, restored: [], written: [], refused },
      },
    );
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

function targetInvalid(file: string, reason: string): BridgeError {
  return new BridgeError("EditInvalid", `edit set rejected: ${file}: ${reason}`, {
    hint: "edits may only change existing regular files inside the workspace",
    details: { file, index: null, reason },
  });
}

/** Phase 2: a filled temp file beside every changed target; any failure leaves none. */
function prepareAll(changed: Target[]): void {
  for (const target of changed) {
    try {
      const data = Buffer.from(target.plan.newText, "utf8");
      target.tmp = prepareReplacement(target.dirFd, target.name, data, target.stat);
    } catch (err) {
      const error = describeError(err);
      throw new BridgeError(
        "ApplyFailed",
        `preparing ${target.rel} failed (${error}); nothing was written`,
        {
          hint: "the workspace is unchanged; fix the cause (permissions, disk space) and apply again",
          details: { failed: target.rel, error, restored: [], written: [] },
        },
      );
    }
  }
}

/** Phase 3: rename every temp file over its target; on failure put back what was replaced. */
function commitAll(changed: Target[], hooks: ApplyHooks): void {
  const replaced: Target[] = [];
  for (const [index, target] of changed.entries()) {
    try {
      hooks.beforeReplace?.(target.abs, index);
      const tmp = target.tmp as string;
      target.tmp = undefined;
      commitReplacement(target.dirFd, tmp, target.name);
      replaced.push(target);
    } catch (err) {
      throw rollBack(target, replaced, err);
    }
  }
  for (const dirFd of new Set(changed.map((t) => t.dirFd))) syncDirectory(dirFd);
}

/** Put back every replaced file and describe what happened. */
function rollBack(failed: Target, replaced: Target[], cause: unknown): BridgeError {
  const restored: string[] = [];
  const stillWritten: string[] = [];
  for (const target of replaced) {
    try {
      const old = Buffer.from(target.plan.oldText, "utf8");
      const tmp = prepareReplacement(target.dirFd, target.name, old, target.stat);
      commitReplacement(target.dirFd, tmp, target.name);
      syncDirectory(target.dirFd);
      restored.push(target.rel);
    } catch {
      stillWritten.push(target.rel);
    }
  }
  const error = describeError(cause);
  const outcome =
    stillWritten.length === 0
      ? "every file written before it was restored"
      : `${stillWritten.length} file(s) could not be restored and hold the new content`;
  return new BridgeError("ApplyFailed", `writing ${failed.rel} failed (${error}); ${outcome}`, {
    hint:
      stillWritten.length === 0
        ? "the workspace is unchanged; fix the cause (permissions, disk space) and apply again"
        : "inspect the files listed in details.written; they were changed and could not be put back",
    details: { failed: failed.rel, error, restored, written: stillWritten },
  });
}

function describeError(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return code !== undefined && !err.message.startsWith(code)
      ? `${code}: ${err.message}`
      : err.message;
  }
  return String(err);
}
