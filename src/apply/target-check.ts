/**
 * What the applier checks of one target (SPEC §7.4), in one place: phase 1 looks at the
 * file the edit names — confined, regular, unchanged, replaceable without splitting it — and
 * keeps what it saw; the swap checks the inode it actually replaced against every property
 * the replacement relies on: identity, type, text, one name, owner and mode, inode flags and
 * extended attributes. Check what will be used, then use what was checked: a property that
 * changed between the two is another writer's doing, and the apply is put back.
 *
 * Files are read into one buffer the apply reuses, and only hashed: no text of a target is
 * kept, so an apply's memory does not grow with the files it touches.
 */
import { createHash } from "node:crypto";
import { closeSync, fstatSync, type Stats } from "node:fs";
import { getFlags, readXattrs } from "../ffi/file-attributes.ts";
import { OPEN, openAt } from "../ffi/syscalls.ts";
import { type ReadBuffer, readBounded } from "../workspace/confined.ts";
import { sha256Hex } from "../workspace/files.ts";
import { type Carried, readCarried, type Swap } from "../workspace/replace.ts";
import { describeError } from "./apply-errors.ts";
import { type PlannedWrite, writtenParts } from "./validate.ts";
import { bridgeUser, replaceRefusal, writeRefusal } from "./writable.ts";

export interface Target {
  plan: PlannedWrite;
  /** real path inside the workspace (symlinks resolved) */
  abs: string;
  rel: string;
  /** handle on the verified directory holding the target, and its name there */
  dirFd: number;
  name: string;
  stat: Stats;
  /** every inode flag the file had, and what of it is carried over */
  flags: number;
  carried: Carried;
  /** SHA-256 of the bytes the apply writes, found from the bytes checked */
  newSha256: string;
  /** the apply's own names beside the target */
  tmp: string;
  bak: string;
  /** set once the temp file is swapped in */
  swap?: Swap;
}

/** What a check found wrong: another writer's change (drift) or a file now unreplaceable. */
export interface Mismatch {
  drift: boolean;
  reason: string;
}

/** The SHA-256 of an open file's bytes, read into `buffer`; undefined when over the bound. */
export function hashOf(
  fd: number,
  size: number,
  maxFileBytes: number,
  file: string,
  buffer: ReadBuffer,
): string | undefined {
  const data = readOrNothing(fd, size, maxFileBytes, file, buffer);
  return data === undefined ? undefined : sha256Hex(data);
}

/** The file's bytes (valid until the buffer's next read), or undefined when over the bound. */
export function readOrNothing(
  fd: number,
  size: number,
  maxFileBytes: number,
  file: string,
  buffer: ReadBuffer,
): Buffer | undefined {
  try {
    return readBounded(fd, size, maxFileBytes, file, buffer);
  } catch {
    // it was within bounds when the plan was made: over them now means it changed
    return undefined;
  }
}

/** SHA-256 of the parts written, in order. */
export function hashParts(parts: readonly Uint8Array[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest("hex");
}

/**
 * Phase 1 for one opened target: unchanged since the edits were computed (else "drift"), or
 * why it may not be replaced, or undefined with `newSha256`, `flags` and `carried` filled.
 */
export function checkOpened(
  target: Target,
  fd: number,
  maxFileBytes: number,
  buffer: ReadBuffer,
): "drift" | string | undefined {
  const data = readOrNothing(fd, target.stat.size, maxFileBytes, target.abs, buffer);
  if (data === undefined || sha256Hex(data) !== target.plan.oldSha256) return "drift";
  target.newSha256 = hashParts(writtenParts(data, target.plan.pieces));
  try {
    target.flags = getFlags(fd);
    target.carried = readCarried(fd);
  } catch (err) {
    return `its attributes cannot be read to carry them over (${describeError(err)})`;
  }
  return (
    writeRefusal(target.stat, fstatSync(target.dirFd), bridgeUser()) ??
    replaceRefusal({
      nlink: target.stat.nlink,
      flags: target.flags,
      dirFlags: getFlags(target.dirFd),
    })
  );
}

/**
 * Is the file `swap.old` names the one phase 1 checked, as it was then? Its identity, type
 * and text (else drift: a rename over the target, a write into it), and what replacing it
 * relies on: no other name (a hard link made meanwhile would keep the old text), the same
 * owner, mode, inode flags and extended attributes (the new file carries phase 1's).
 */
export function replacedMismatch(
  t: Target,
  swap: Swap,
  maxFileBytes: number,
  buffer: ReadBuffer,
): Mismatch | undefined {
  let fd: number;
  try {
    fd = openAt(t.dirFd, swap.old, OPEN.readFile);
  } catch {
    return { drift: true, reason: "it is gone" };
  }
  try {
    return mismatchOf(t, fd, fstatSync(fd), maxFileBytes, buffer);
  } catch (err) {
    return { drift: true, reason: describeError(err) };
  } finally {
    closeSync(fd);
  }
}

function mismatchOf(
  t: Target,
  fd: number,
  stat: Stats,
  maxFileBytes: number,
  buffer: ReadBuffer,
): Mismatch | undefined {
  // an inode number is reused at once after a delete: the type and text decide too
  if (!stat.isFile() || stat.dev !== t.stat.dev || stat.ino !== t.stat.ino) {
    return { drift: true, reason: "another file took its place" };
  }
  if (hashOf(fd, stat.size, maxFileBytes, t.abs, buffer) !== t.plan.oldSha256) {
    return { drift: true, reason: "its text changed" };
  }
  // the apply's own name is the replaced file's only one: another is a hard link made since
  if (stat.nlink !== 1) {
    return { drift: false, reason: `it has ${stat.nlink} hard links now (one was made)` };
  }
  if (stat.uid !== t.stat.uid || stat.gid !== t.stat.gid || stat.mode !== t.stat.mode) {
    return { drift: false, reason: "its owner or mode changed" };
  }
  if (getFlags(fd) !== t.flags) return { drift: false, reason: "its inode flags changed" };
  if (!sameXattrs(readXattrs(fd), t.carried.xattrs)) {
    return { drift: false, reason: "its extended attributes changed" };
  }
  return undefined;
}

function sameXattrs(a: Map<string, Uint8Array>, b: Map<string, Uint8Array>): boolean {
  if (a.size !== b.size) return false;
  for (const [name, value] of a) {
    const other = b.get(name);
    if (other === undefined || !Buffer.from(value).equals(Buffer.from(other))) return false;
  }
  return true;
}
