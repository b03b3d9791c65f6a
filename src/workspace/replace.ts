/**
 * Atomic replacement of a workspace file inside a directory handle (SPEC §7.4, §8.1): the
 * temp file is created exclusively in the very directory that was verified to lie beneath
 * the root, filled, given the original's owner and mode, fsynced, and renamed over the
 * target within the same handle. Nothing here resolves a path by name.
 */
import { randomBytes } from "node:crypto";
import { closeSync, fchmodSync, fchownSync, fsyncSync, type Stats, writeSync } from "node:fs";
import { OPEN, openAt, renameAt, unlinkAt } from "../ffi/syscalls.ts";
import { errnoCode } from "./file-errors.ts";

/** Linux NAME_MAX, in bytes. */
const NAME_MAX = 255;
const TEMP_CREATE_ATTEMPTS = 8;

/**
 * Create `.<name>.theodolite-<random>.tmp` in `dirFd` holding `data`, with the original's
 * owner (where the bridge may set it) and mode, fsynced. Returns the temp file's name; on
 * failure the temp file is removed and the failure thrown.
 */
export function prepareReplacement(
  dirFd: number,
  name: string,
  data: Uint8Array,
  original: Stats,
): string {
  const { fd, tmp } = createTemp(dirFd, name);
  try {
    try {
      writeAll(fd, data);
      keepOwner(fd, original);
      // after chown: chown clears set-id bits, chmod puts them back
      fchmodSync(fd, original.mode & 0o7777);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    discardReplacement(dirFd, tmp);
    throw err;
  }
  return tmp;
}

/** Rename the prepared temp file over `name` (same directory handle); on failure it is removed. */
export function commitReplacement(dirFd: number, tmp: string, name: string): void {
  try {
    renameAt(dirFd, tmp, name);
  } catch (err) {
    discardReplacement(dirFd, tmp);
    throw err;
  }
}

/**
 * Remove a prepared temp file that will not be committed, best effort: it runs while
 * another error is on its way out, and that error is what the caller hears (a temp file
 * that cannot be removed either is left).
 */
export function discardReplacement(dirFd: number, tmp: string): void {
  try {
    unlinkAt(dirFd, tmp);
  } catch {
    // already gone, or not removable: the original failure is reported
  }
}

/** Make renames in this directory durable. */
export function syncDirectory(dirFd: number): void {
  fsyncSync(dirFd);
}

function createTemp(dirFd: number, base: string): { fd: number; tmp: string } {
  let lastError: unknown;
  for (let attempt = 0; attempt < TEMP_CREATE_ATTEMPTS; attempt++) {
    const suffix = `.theodolite-${randomBytes(8).toString("hex")}.tmp`;
    const tmp = `.${truncateUtf8(base, NAME_MAX - 1 - Buffer.byteLength(suffix))}${suffix}`;
    try {
      return { fd: openAt(dirFd, tmp, OPEN.createExclusive, 0o600), tmp };
    } catch (err) {
      lastError = err;
      // a name collision is retried with a fresh random part; anything else is final
      if (errnoCode(err) !== "EEXIST") throw err;
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

function writeAll(fd: number, data: Uint8Array): void {
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
    const code = errnoCode(err);
    if (code !== "EPERM" && code !== "EINVAL") throw err;
  }
}
