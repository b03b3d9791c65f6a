/**
 * Which file a path means (SPEC §4.2 `file`, §8): realpath, then the result must lie inside
 * the root's realpath. This decides *which* file is meant; confined.ts then opens it without
 * trusting the path a second time (SPEC §8.1).
 */
import { createHash } from "node:crypto";
import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { emptyPathError, errnoCode, HINT, notFoundError, outsideError } from "./file-errors.ts";
import { candidatePath, relativeInside, type WorkspaceRoot } from "./paths.ts";

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** realpath of a root; a root that cannot be resolved is used as given (lexically). */
export function realRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return resolve(root);
  }
}

/** A root as configured with its realpath, for callers that hold no Workspace object. */
export function workspaceRoot(root: string): WorkspaceRoot {
  return { root, rootReal: realRoot(root) };
}

/** Linux PATH_MAX, in bytes with the terminating NUL: the longest path a system call takes. */
const PATH_MAX = 4096;

/**
 * For a path whose realpath failed: whether it would lead outside the root, so that a
 * missing path outside is reported as outside (no probing for files beyond the root). Checks
 * a dangling symlink's target and the realpath of the deepest existing ancestor.
 */
function missingPathEscapes(rootReal: string, candidate: string): boolean {
  try {
    if (lstatSync(candidate).isSymbolicLink()) {
      const target = resolve(realRoot(dirname(candidate)), readlinkSync(candidate));
      if (relativeInside(rootReal, target) === null) return true;
    }
  } catch {
    // not there at all: fall through to the ancestors
  }
  let dir = dirname(candidate);
  // nothing longer than PATH_MAX can exist: start from the longest ancestor the kernel can
  // name, not one failed realpath per component of a very long path
  if (dir.length >= PATH_MAX) {
    const cut = dir.lastIndexOf("/", PATH_MAX - 1);
    dir = cut > 0 ? dir.slice(0, cut) : "/";
  }
  for (;;) {
    try {
      return relativeInside(rootReal, realpathSync(dir)) === null;
    } catch {
      const up = dirname(dir);
      if (up === dir) return true;
      dir = up;
    }
  }
}

/** A file argument resolved: `abs` its realpath, `rel` the workspace-relative POSIX path. */
export interface ResolvedFile {
  abs: string;
  rel: string;
}

/**
 * Resolve a tool's `file` argument: workspace-relative or absolute; realpath; must stay
 * inside `rootReal`. `abs` is the realpath (what URIs sent to servers are built from).
 * `workspace` names the workspace in PathOutsideWorkspace's details.
 */
export function resolveWorkspaceFile(
  rootReal: string,
  file: string,
  workspace?: string,
): ResolvedFile {
  if (file.length === 0 || file.includes("\0")) {
    throw emptyPathError(file);
  }
  // absolute paths are only judged after realpath
  const candidate = candidatePath(rootReal, file);
  if (!isAbsolute(file) && relativeInside(rootReal, candidate) === null) {
    throw outsideError(file, workspace);
  }
  let real: string;
  try {
    real = realpathSync(candidate);
  } catch (err) {
    if (missingPathEscapes(rootReal, candidate)) throw outsideError(file, workspace);
    const code = errnoCode(err);
    if (code === "ELOOP") throw notFoundError(file, HINT.loop);
    if (code === "EACCES") throw notFoundError(file, HINT.noAccess);
    throw notFoundError(file, HINT.checkPath);
  }
  const rel = relativeInside(rootReal, real);
  if (rel === null) throw outsideError(file, workspace);
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(real);
  } catch {
    throw notFoundError(file, HINT.checkPath);
  }
  if (stats.isDirectory()) throw notFoundError(file, HINT.directory);
  if (!stats.isFile()) throw notFoundError(file, HINT.special);
  return { abs: real, rel };
}

/**
 * A path that may name a file not written yet (a preview's new file, SPEC §6.2): a path
 * that exists resolves as a `file` argument; else its deepest existing ancestor must be a
 * directory whose realpath keeps the path inside the root (the directories below it may be
 * new too). `exists`: on disk now.
 */
export function resolveMaybeNewFile(
  rootReal: string,
  file: string,
  workspace?: string,
): ResolvedFile & { exists: boolean } {
  const invalid = file.length === 0 || file.includes("\0");
  const candidate = invalid ? "" : candidatePath(rootReal, file);
  const escapes = !invalid && !isAbsolute(file) && relativeInside(rootReal, candidate) === null;
  // an entry there (a dangling link too), a bad path, or one outside: judged as a `file`
  if (invalid || escapes || entryAt(candidate)) {
    return { ...resolveWorkspaceFile(rootReal, file, workspace), exists: true };
  }
  if (candidate.length >= PATH_MAX) throw notFoundError(file, HINT.checkPath);
  const rest = [basename(candidate)];
  let dir = dirname(candidate);
  let abs: string | undefined;
  while (abs === undefined) {
    try {
      abs = join(realpathSync(dir), ...rest);
    } catch (err) {
      const up = dirname(dir);
      // only missing directories may be new; a file or a loop on the way is not a directory
      if (errnoCode(err) !== "ENOENT" || up === dir) throw notFoundError(file, HINT.newFile);
      rest.unshift(basename(dir));
      dir = up;
    }
  }
  const rel = relativeInside(rootReal, abs);
  if (rel === null) throw outsideError(file, workspace);
  if (!statSync(dir).isDirectory()) throw notFoundError(file, HINT.newFile);
  return { abs, rel, exists: false };
}

function entryAt(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
