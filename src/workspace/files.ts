/**
 * Workspace path resolution (SPEC §4.2 `file`, §8): realpath, then the result must lie
 * inside realpath(root). This decides *which* file is meant; confined.ts then opens it
 * without trusting the path a second time (SPEC §8.1).
 */

import { createHash } from "node:crypto";
import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { BridgeError } from "../errors.ts";
import { errnoCode, HINT, notFoundError, outsideError } from "./file-errors.ts";

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** realpath of the root; a root that cannot be resolved is used as given (lexically). */
export function realRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return resolve(root);
  }
}

/** An absolute path `relative()` would not change: no empty, `.` or `..` segment, no trailing `/`. */
const NOT_PLAIN = /\/\/|\/\.\.?(?:\/|$)|\/$/;

function plainAbsolute(p: string): boolean {
  return p.charCodeAt(0) === 47 && !NOT_PLAIN.test(p);
}

/** Whether `path` is `dir` or lies below it, lexically (both absolute and plain). */
export function atOrBelow(dir: string, path: string): boolean {
  return path === dir || path.startsWith(dir === "/" ? "/" : `${dir}/`);
}

/** `abs` relative to `root` as a POSIX path when lexically inside it ("." for the root), else null. */
export function relativeInside(root: string, abs: string): string | null {
  // below a plain root, a plain path's relative form is its suffix (a result names many)
  if (
    abs.length > root.length + 1 &&
    abs.charCodeAt(root.length) === 47 &&
    abs.startsWith(root) &&
    sep === "/" &&
    plainAbsolute(root) &&
    plainAbsolute(abs)
  ) {
    return abs.slice(root.length + 1);
  }
  const rel = relative(root, abs);
  if (rel === "") return ".";
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  return sep === "/" ? rel : rel.split(sep).join("/");
}

const rootCache = new Map<string, string>();

/**
 * realpath of a configured workspace root, resolved once per process: roots come from
 * the trusted configuration (SPEC §8) and resolving them on every call was the largest
 * per-call cost measured in bench/overhead.ts. Files are still resolved on every call.
 */
export function workspaceRootReal(root: string): string {
  let real = rootCache.get(root);
  if (real === undefined) {
    real = realRoot(root);
    if (rootCache.size < 64) rootCache.set(root, real);
  }
  return real;
}

/** workspace-relative POSIX path when inside realpath(root), else the absolute path */
export function displayPath(root: string, abs: string): string {
  const real = workspaceRootReal(root);
  return relativeInside(real, abs) ?? relativeInside(resolve(root), abs) ?? abs;
}

/**
 * For a path whose realpath failed: decide whether it would lead outside the root, so that a
 * missing path outside is reported as outside (no probing for files beyond the root). Checks
 * a dangling symlink's target and the realpath of the deepest existing ancestor.
 */
/** Linux PATH_MAX, in bytes with the terminating NUL: the longest path a system call takes. */
const PATH_MAX = 4096;

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
  // name (a path of a million components cost one failed realpath per component, seconds)
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

/**
 * The path a `file` argument names before realpath: a relative one below the real root, an
 * absolute one as given (it may name the root through a symlinked spelling).
 */
export function candidatePath(rootReal: string, file: string): string {
  return isAbsolute(file) ? resolve(file) : resolve(rootReal, file);
}

/** A file argument resolved: `abs` its realpath, `rel` the workspace-relative POSIX path. */
export interface ResolvedFile {
  abs: string;
  rel: string;
}

/**
 * Resolve a tool's `file` argument: workspace-relative or absolute; realpath; must stay
 * inside realpath(root). `abs` is the realpath (what URIs sent to servers are built from);
 * `rel` the workspace-relative POSIX path.
 */
export function resolveWorkspaceFile(root: string, file: string): ResolvedFile {
  if (file.length === 0 || file.includes("\0")) {
    throw new BridgeError("InvalidArgument", "`file` must be a non-empty path", {
      hint: "pass a workspace-relative path such as src/main.c",
      details: { file },
    });
  }
  const rootReal = workspaceRootReal(root);
  // absolute paths are only judged after realpath (candidatePath)
  const candidate = candidatePath(rootReal, file);
  if (!isAbsolute(file) && relativeInside(rootReal, candidate) === null) {
    throw outsideError(file, rootReal);
  }
  let real: string;
  try {
    real = realpathSync(candidate);
  } catch (err) {
    if (missingPathEscapes(rootReal, candidate)) throw outsideError(file, rootReal);
    const code = errnoCode(err);
    if (code === "ELOOP") throw notFoundError(file, HINT.loop);
    if (code === "EACCES") throw notFoundError(file, HINT.noAccess);
    throw notFoundError(file, HINT.checkPath);
  }
  const rel = relativeInside(rootReal, real);
  if (rel === null) throw outsideError(file, rootReal);
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
