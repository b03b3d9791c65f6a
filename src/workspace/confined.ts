/**
 * Every read of a workspace file goes through here (SPEC §8.1), whether the path came from
 * a tool argument, a server's location or edit, the warm-up scan or the applier. A path is
 * resolved (files.ts decides which file is meant), then opened by walking its real,
 * workspace-relative path one component at a time from a handle on the root with
 * `openat(O_NOFOLLOW)`: a link or directory swapped in after the check makes the walk fail
 * instead of leading out, so what is read always lies beneath the root. The opened
 * descriptor is checked with fstat (regular files only; a FIFO opens without blocking and
 * is refused) and read to at most max_bytes + 1 bytes.
 */
import { isUtf8 } from "node:buffer";
import { closeSync, constants, fstatSync, readSync, type Stats } from "node:fs";
import { BridgeError } from "../errors.ts";
import { OPEN, openAt } from "../ffi/syscalls.ts";
import { errnoCode, HINT, notFoundError, notUtf8Error, tooLargeError } from "./file-errors.ts";
import { type ResolvedFile, resolveWorkspaceFile, sha256Hex } from "./files.ts";

/** What identifies a file's content on disk without reading it. */
export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

export interface OpenedFile {
  /** read-only descriptor of the regular file; the caller closes it */
  fd: number;
  /** real absolute path (what URIs sent to servers are built from) */
  abs: string;
  /** workspace-relative POSIX path */
  rel: string;
  stat: Stats;
}

export interface WorkspaceText {
  abs: string;
  rel: string;
  text: string;
  sha256: string;
  bytes: number;
  identity: FileIdentity;
}

/** A resolution that a concurrent swap invalidated is retried this many times in all. */
const RESOLVE_ATTEMPTS = 3;
/** errnos of a walk that met something other than what the resolution saw */
const SWAPPED = new Set(["ELOOP", "ENOTDIR", "ENOENT"]);

export function identityOf(stat: Stats): FileIdentity {
  return {
    dev: stat.dev,
    ino: stat.ino,
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    ctimeMs: stat.ctimeMs,
  };
}

function components(rel: string): string[] {
  const parts = rel.split("/");
  // a real relative path has none of these; refuse rather than interpret them
  if (parts.some((p) => p === "" || p === "." || p === "..")) {
    throw Object.assign(new Error(`not a plain relative path: ${rel}`), { code: "EINVAL" });
  }
  return parts;
}

/**
 * Descriptor of the directory `dirParts` beneath the root, reached without following any
 * link. `lastFlags` opens the final directory (OPEN.dirStep for a walk, OPEN.dirHandle for
 * a directory the caller creates entries in).
 */
export function openDirBeneath(rootReal: string, dirParts: string[], lastFlags: number): number {
  let fd = openAt(null, rootReal, dirParts.length === 0 ? lastFlags : OPEN.dirStep);
  for (const [i, part] of dirParts.entries()) {
    try {
      const next = openAt(fd, part, i === dirParts.length - 1 ? lastFlags : OPEN.dirStep);
      closeSync(fd);
      fd = next;
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }
  return fd;
}

/** Split a real relative path into its directory components and its file name. */
function splitRel(rel: string): { dirParts: string[]; name: string } {
  const parts = components(rel);
  const name = parts.pop() as string;
  return { dirParts: parts, name };
}

/** Open `name` in `dirFd` for reading and make sure it is a regular file. */
function openRegularIn(dirFd: number, name: string, file: string): { fd: number; stat: Stats } {
  const fd = openAt(dirFd, name, OPEN.readFile);
  let stat: Stats;
  try {
    stat = fstatSync(fd);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  if (!stat.isFile()) {
    closeSync(fd);
    throw notFoundError(file, stat.isDirectory() ? HINT.directory : HINT.special);
  }
  return { fd, stat };
}

/** An open file together with a handle on the directory that holds it. */
export interface OpenedInDir extends OpenedFile {
  dirFd: number;
  /** the file's name inside dirFd */
  name: string;
}

/**
 * Resolve `file` (workspace-relative, or absolute inside the root) and open it beneath the
 * root's realpath `rootReal`, keeping a handle on its directory opened with `dirFlags`; the
 * caller closes both.
 * A walk that meets a swapped link or directory resolves again (a bounded number of
 * times). Throws PathOutsideWorkspace / FileNotFound (also for directories and special
 * files, and for a path that keeps changing while it is opened).
 */
export function openWorkspaceFileInDir(
  rootReal: string,
  file: string,
  dirFlags: number = OPEN.dirStep,
  /** `resolveWorkspaceFile(rootReal, file)` the caller has just made: the first attempt's */
  resolved?: ResolvedFile,
): OpenedInDir {
  for (let attempt = 1; ; attempt++) {
    const { abs, rel } =
      attempt === 1 && resolved !== undefined ? resolved : resolveWorkspaceFile(rootReal, file);
    let dirFd: number | undefined;
    try {
      const { dirParts, name } = splitRel(rel);
      dirFd = openDirBeneath(rootReal, dirParts, dirFlags);
      const { fd, stat } = openRegularIn(dirFd, name, file);
      return { fd, abs, rel, stat, dirFd, name };
    } catch (err) {
      if (dirFd !== undefined) closeSync(dirFd);
      const swapped = !(err instanceof BridgeError) && SWAPPED.has(errnoCode(err) ?? "");
      if (!swapped || attempt >= RESOLVE_ATTEMPTS) throw typed(file, err);
    }
  }
}

/** openWorkspaceFileInDir without the directory handle: the caller closes `fd`. */
function openWorkspaceFile(rootReal: string, file: string, resolved?: ResolvedFile): OpenedFile {
  const { fd, abs, rel, stat, dirFd } = openWorkspaceFileInDir(
    rootReal,
    file,
    OPEN.dirStep,
    resolved,
  );
  closeSync(dirFd);
  return { fd, abs, rel, stat };
}

/** A failed open or read as the typed error of SPEC §4.6. */
export function typed(file: string, err: unknown): BridgeError {
  if (err instanceof BridgeError) return err;
  const code = errnoCode(err);
  if (code !== undefined && SWAPPED.has(code)) return notFoundError(file, HINT.swapped);
  if (code === "EACCES" || code === "EPERM") return notFoundError(file, HINT.unreadable);
  return notFoundError(file, `${HINT.unreadable} (${code ?? String(err)})`);
}

/** Read an open descriptor to its end, refusing more than maxBytes without reading further. */
export function readBounded(
  fd: number,
  size: number,
  maxBytes: number,
  file: string,
  /** reads one after another share this buffer: the bytes are valid until the next read */
  reuse?: ReadBuffer,
): Buffer {
  if (size > maxBytes) throw tooLargeError(file, size, maxBytes);
  // room for the bytes fstat announced plus one, to notice a file that grew
  const room = Math.min(size, maxBytes) + 1;
  let buf =
    reuse !== undefined && reuse.buffer.length >= room ? reuse.buffer : Buffer.allocUnsafe(room);
  let length = 0;
  for (;;) {
    if (length === buf.length) {
      if (length > maxBytes) break;
      const bigger = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(buf.length * 2, 65536)));
      buf.copy(bigger, 0, 0, length);
      buf = bigger;
    }
    const n = readSync(fd, buf, length, buf.length - length, null);
    if (n === 0) break;
    length += n;
  }
  if (reuse !== undefined) reuse.buffer = buf;
  if (length > maxBytes) throw tooLargeError(file, length, maxBytes);
  return buf.subarray(0, length);
}

/** One buffer for reads one after another (an apply's files): it grows to the largest. */
export interface ReadBuffer {
  buffer: Buffer;
}

/** UTF-8 text of the bytes (SPEC §5); a leading BOM is kept as text so offsets match the disk. */
export function decodeUtf8(data: Uint8Array, file: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(data);
  } catch {
    throw notUtf8Error(file);
  }
}

/**
 * The text of a workspace file beneath `rootReal` (SPEC §5): more than maxBytes →
 * FileTooLarge; invalid UTF-8 → NotUtf8; plus the errors of openWorkspaceFile.
 */
export function readWorkspaceText(
  rootReal: string,
  file: string,
  maxBytes: number,
  /** `resolveWorkspaceFile(rootReal, file)` the caller has just made (saves resolving twice) */
  resolved?: ResolvedFile,
): WorkspaceText {
  return readWorkspaceBytes(rootReal, file, maxBytes, resolved, undefined, (opened, data) => ({
    abs: opened.abs,
    rel: opened.rel,
    text: decodeUtf8(data, opened.abs),
    sha256: sha256Hex(data),
    bytes: data.byteLength,
    identity: identityOf(opened.stat),
  }));
}

/**
 * The SHA-256 of a workspace file's bytes, with the checks and errors of readWorkspaceText
 * but no text made: read into `reuse`, so that hashing many files leaves nothing behind.
 */
export function hashWorkspaceFile(
  rootReal: string,
  file: string,
  maxBytes: number,
  reuse: ReadBuffer,
): { abs: string; sha256: string } {
  return readWorkspaceBytes(rootReal, file, maxBytes, undefined, reuse, (opened, data) => {
    if (!isUtf8(data)) throw notUtf8Error(opened.abs);
    return { abs: opened.abs, sha256: sha256Hex(data) };
  });
}

function readWorkspaceBytes<T>(
  rootReal: string,
  file: string,
  maxBytes: number,
  resolved: ResolvedFile | undefined,
  reuse: ReadBuffer | undefined,
  use: (opened: OpenedFile, data: Buffer) => T,
): T {
  const opened = openWorkspaceFile(rootReal, file, resolved);
  try {
    let data: Buffer;
    try {
      data = readBounded(opened.fd, opened.stat.size, maxBytes, opened.abs, reuse);
    } catch (err) {
      throw typed(file, err);
    }
    return use(opened, data);
  } finally {
    closeSync(opened.fd);
  }
}

/** Identity of a workspace file without reading it (same confinement and errors). */
export function statWorkspaceFile(
  rootReal: string,
  file: string,
): { abs: string; rel: string; identity: FileIdentity } {
  return statWorkspaceFileWith(rootReal, file, undefined, () => undefined);
}

/**
 * statWorkspaceFile, `atOpen` given the opened descriptor before it is closed (a watch on
 * that very inode, file-vouches.ts); `resolved`: the resolution the caller has just made.
 */
export function statWorkspaceFileWith<T>(
  rootReal: string,
  file: string,
  resolved: ResolvedFile | undefined,
  atOpen: (fd: number) => T,
): { abs: string; rel: string; identity: FileIdentity; got: T } {
  const opened = openWorkspaceFile(rootReal, file, resolved);
  try {
    const got = atOpen(opened.fd);
    return { abs: opened.abs, rel: opened.rel, identity: identityOf(opened.stat), got };
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * A small text file the bridge reads by design outside any workspace root (zero-config
 * discovery looks up `node_modules/typescript/package.json` in the root's ancestors, as
 * Node would): not confined, but still never blocking (a FIFO is refused by fstat), never
 * more than `maxBytes`, UTF-8 only. Undefined when any of that fails.
 */
export function readTextOutsideWorkspace(abs: string, maxBytes: number): string | undefined {
  let fd: number;
  try {
    fd = openAt(null, abs, OPEN.readFile & ~constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return undefined;
    return decodeUtf8(readBounded(fd, stat.size, maxBytes, abs), abs);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
