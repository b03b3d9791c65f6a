/**
 * Workspace confinement and file reading (SPEC §4.2 `file`, §5, §8: tool arguments are
 * confined to the workspace). Every path a tool touches goes through resolveWorkspaceFile.
 */

import { createHash } from "node:crypto";
import { lstatSync, readFileSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { BridgeError } from "../errors.ts";

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

/** `abs` relative to `root` as a POSIX path when lexically inside it ("." for the root), else null. */
export function relativeInside(root: string, abs: string): string | null {
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

function outside(file: string, root: string): BridgeError {
  return new BridgeError("PathOutsideWorkspace", `${file} is outside the workspace root`, {
    hint: "pass a path inside the workspace, relative to its root; `..` and symlinks leading out are refused",
    details: { file, root },
  });
}

function notFound(file: string, hint: string): BridgeError {
  return new BridgeError("FileNotFound", `${file} does not exist or is not a regular file`, {
    hint,
    details: { file },
  });
}

function errCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * For a path whose realpath failed: decide whether it would lead outside the root, so that a
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
 * Resolve a tool's `file` argument: workspace-relative or absolute; realpath; must stay
 * inside realpath(root). `abs` is the realpath (what URIs sent to servers are built from);
 * `rel` the workspace-relative POSIX path.
 */
export function resolveWorkspaceFile(root: string, file: string): { abs: string; rel: string } {
  if (file.length === 0 || file.includes("\0")) {
    throw new BridgeError("InvalidArgument", "`file` must be a non-empty path", {
      hint: "pass a workspace-relative path such as src/main.c",
      details: { file },
    });
  }
  const rootReal = workspaceRootReal(root);
  // Relative paths resolve against the real root; absolute ones may name the root through
  // a symlinked spelling, so they are only judged after realpath.
  const candidate = isAbsolute(file) ? resolve(file) : resolve(rootReal, file);
  if (!isAbsolute(file) && relativeInside(rootReal, candidate) === null) {
    throw outside(file, rootReal);
  }
  let real: string;
  try {
    real = realpathSync(candidate);
  } catch (err) {
    if (missingPathEscapes(rootReal, candidate)) throw outside(file, rootReal);
    const code = errCode(err);
    if (code === "ELOOP") throw notFound(file, "the path is a symlink loop");
    if (code === "EACCES") throw notFound(file, "a directory on the path is not accessible");
    throw notFound(file, "check the path; it is resolved relative to the workspace root");
  }
  const rel = relativeInside(rootReal, real);
  if (rel === null) throw outside(file, rootReal);
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(real);
  } catch {
    throw notFound(file, "check the path; it is resolved relative to the workspace root");
  }
  if (stats.isDirectory()) throw notFound(file, "the path is a directory; pass a file inside it");
  if (!stats.isFile())
    throw notFound(file, "the path is not a regular file (device, FIFO or socket)");
  return { abs: real, rel };
}

/**
 * Read a file as UTF-8 (SPEC §5): more than maxBytes → FileTooLarge; invalid UTF-8 → NotUtf8.
 * A leading BOM is kept as text so offsets match what servers see on disk.
 */
export function readTextFile(
  abs: string,
  maxBytes: number,
): { text: string; sha256: string; bytes: number } {
  let data: Uint8Array;
  try {
    const size = statSync(abs).size;
    if (size > maxBytes) throw tooLarge(abs, size, maxBytes);
    data = readFileSync(abs);
  } catch (err) {
    if (err instanceof BridgeError) throw err;
    const code = errCode(err);
    throw notFound(
      abs,
      code === "EISDIR"
        ? "the path is a directory; pass a file inside it"
        : "the file could not be read; check that it exists and is readable",
    );
  }
  // The file may have grown between stat and read.
  if (data.byteLength > maxBytes) throw tooLarge(abs, data.byteLength, maxBytes);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(data);
  } catch {
    throw new BridgeError("NotUtf8", `${abs} is not valid UTF-8`, {
      hint: "theodolite only works on UTF-8 text files; convert the file or pick another",
      details: { file: abs },
    });
  }
  return { text, sha256: sha256Hex(data), bytes: data.byteLength };
}

function tooLarge(abs: string, bytes: number, maxBytes: number): BridgeError {
  return new BridgeError("FileTooLarge", `${abs} is ${bytes} bytes, over the ${maxBytes} limit`, {
    hint: "raise bridge.max_file_bytes in bridge.toml if this file must be served",
    details: { bytes, max_bytes: maxBytes },
  });
}
