/**
 * The only write path of the bridge (SPEC §7.4). Two phases:
 *  1. check every target (confined, existing, regular, unchanged since the
 *     edits were computed) before touching anything;
 *  2. replace each file atomically (temp file in the same directory, original
 *     mode and owner, fsync, rename, fsync the directory).
 * A failure in phase 2 puts back every file already replaced, the same atomic way.
 *
 * File operations are synchronous on purpose: an apply runs to completion
 * without yielding to the event loop, so two applies can never interleave.
 */

import { randomBytes } from "node:crypto";
import {
  closeSync,
  fchmodSync,
  fchownSync,
  fsyncSync,
  openSync,
  realpathSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import { BridgeError, isBridgeError } from "../errors.ts";
import { readTextFile, resolveWorkspaceFile } from "../workspace/files.ts";
import type { PlannedWrite } from "./validate.ts";

/** Test seam: called synchronously as each file's replacement begins, after all checks passed. */
export interface ApplyHooks {
  beforeReplace?: (abs: string, index: number) => void;
}

interface Target {
  plan: PlannedWrite;
  /** real path inside the workspace (symlinks resolved) */
  abs: string;
  rel: string;
  stat: Stats;
}

/** Linux NAME_MAX, in bytes. */
const NAME_MAX = 255;
const TEMP_CREATE_ATTEMPTS = 8;

/**
 * Check every target, then write them all. Returns the real absolute paths of
 * the files whose content changed (for resyncing sessions); files whose new text
 * equals the old are checked but not rewritten.
 *
 * Errors: `EditInvalid` (a target escapes the workspace, e.g. through a
 * symlink, or is listed twice), `WorkspaceDrift` (a target's content changed
 * since the edits were computed, or it is gone or no longer a regular file;
 * details.files), `ApplyFailed` (a write failed; details
 * `{failed, error, restored, written}`, where `written` lists files that could
 * not be restored and still hold new content). Nothing is written unless all
 * checks pass.
 */
export async function applyPlannedWrites(
  root: string,
  plans: PlannedWrite[],
  maxFileBytes: number,
  hooks: ApplyHooks = {},
): Promise<{ written: string[] }> {
  const targets = checkTargets(root, plans, maxFileBytes);
  const changed = targets.filter((t) => t.plan.newText !== t.plan.oldText);
  const replaced: Target[] = [];
  for (const [index, target] of changed.entries()) {
    try {
      hooks.beforeReplace?.(target.abs, index);
      replaceAtomically(target.abs, target.plan.newText, target.stat);
      replaced.push(target);
      fsyncDirectory(dirname(target.abs));
    } catch (err) {
      throw rollBack(target, replaced, err);
    }
  }
  return { written: changed.map((t) => t.abs) };
}

/** Phase 1: every check for every target, before the first write. */
function checkTargets(root: string, plans: PlannedWrite[], maxFileBytes: number): Target[] {
  const targets: Target[] = [];
  const seen = new Set<string>();
  const drifted: string[] = [];
  for (const plan of plans) {
    let resolved: { abs: string; rel: string };
    try {
      resolved = resolveWorkspaceFile(root, plan.abs);
    } catch (err) {
      // An edit aimed outside the workspace is a bad edit set, not a bad tool argument.
      if (isBridgeError(err, "PathOutsideWorkspace")) {
        throw targetInvalid(displayPath(root, plan.abs), err.message);
      }
      // The plan was computed from this file's text, so it existed then: it changed since.
      if (isBridgeError(err, "FileNotFound")) {
        drifted.push(displayPath(root, plan.abs));
        continue;
      }
      throw err;
    }
    const stat = statSync(resolved.abs, { throwIfNoEntry: false });
    if (stat === undefined || !stat.isFile()) {
      drifted.push(resolved.rel);
      continue;
    }
    if (seen.has(resolved.abs)) {
      throw targetInvalid(resolved.rel, "the same file is targeted more than once");
    }
    seen.add(resolved.abs);
    if (!unchangedSince(resolved.abs, plan.oldSha256, maxFileBytes)) drifted.push(resolved.rel);
    targets.push({ plan, abs: resolved.abs, rel: resolved.rel, stat });
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
  return targets;
}

/** Does the file still hash to what the edits were computed against? */
function unchangedSince(abs: string, sha256: string, maxFileBytes: number): boolean {
  try {
    return readTextFile(abs, maxFileBytes).sha256 === sha256;
  } catch (err) {
    // It was readable, within bounds and UTF-8 when the plan was made: any of these now means it changed.
    if (
      isBridgeError(err, "FileTooLarge") ||
      isBridgeError(err, "NotUtf8") ||
      isBridgeError(err, "FileNotFound")
    ) {
      return false;
    }
    throw err;
  }
}

function targetInvalid(file: string, reason: string): BridgeError {
  return new BridgeError("EditInvalid", `edit set rejected: ${file}: ${reason}`, {
    hint: "edits may only change existing regular files inside the workspace",
    details: { file, index: null, reason },
  });
}

/** Workspace-relative when the path lies lexically inside the (real) root, else as given. */
function displayPath(root: string, abs: string): string {
  let realRoot = root;
  try {
    realRoot = realpathSync(root);
  } catch {
    // an unresolvable root: compare lexically
  }
  const rel = relative(realRoot, abs);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? abs : rel;
}

/** Put back every replaced file and describe what happened. */
function rollBack(failed: Target, replaced: Target[], cause: unknown): BridgeError {
  const restored: string[] = [];
  const stillWritten: string[] = [];
  for (const target of replaced) {
    try {
      replaceAtomically(target.abs, target.plan.oldText, target.stat);
      fsyncDirectory(dirname(target.abs));
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

/**
 * Replace `target` with `text` so a reader sees either the old or the new file,
 * never a mix: write a sibling temp file, give it the original mode and owner,
 * fsync it, rename it over the target. The temp file is removed on failure.
 */
function replaceAtomically(target: string, text: string, original: Stats): void {
  const dir = dirname(target);
  const { fd, path: tmp } = createTempFile(dir, basename(target));
  try {
    try {
      writeAll(fd, Buffer.from(text, "utf8"));
      keepOwner(fd, original);
      // after chown: chown clears set-id bits, chmod puts them back
      fchmodSync(fd, original.mode & 0o7777);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, target);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone (or never made it): nothing to clean
    }
    throw err;
  }
}

/** `.<base>.theodolite-<random>.tmp`, exclusive create; the base is shortened if the name would be too long. */
function createTempFile(dir: string, base: string): { fd: number; path: string } {
  let lastError: unknown;
  for (let attempt = 0; attempt < TEMP_CREATE_ATTEMPTS; attempt++) {
    const suffix = `.theodolite-${randomBytes(8).toString("hex")}.tmp`;
    const name = `.${truncateUtf8(base, NAME_MAX - 1 - Buffer.byteLength(suffix))}${suffix}`;
    const path = join(dir, name);
    try {
      return { fd: openSync(path, "wx", 0o600), path };
    } catch (err) {
      lastError = err;
      // a name collision is retried with a fresh random part; anything else is final
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  throw lastError;
}

function truncateUtf8(s: string, maxBytes: number): string {
  if (Buffer.byteLength(s) <= maxBytes) return s;
  let out = "";
  let bytes = 0;
  for (const ch of s) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > maxBytes) break;
    out += ch;
    bytes += n;
  }
  return out;
}

function writeAll(fd: number, data: Buffer): void {
  let offset = 0;
  while (offset < data.length) {
    offset += writeSync(fd, data, offset, data.length - offset);
  }
}

/** Keep the original owner where we may (root); an unprivileged bridge keeps its own. */
function keepOwner(fd: number, original: Stats): void {
  if (original.uid === process.getuid?.() && original.gid === process.getgid?.()) return;
  try {
    fchownSync(fd, original.uid, original.gid);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "EPERM" && code !== "EINVAL") throw err;
  }
}

/** Make the rename itself durable. */
function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
