/**
 * Paths as strings, without looking at the disk (SPEC §4.3, §8): what lies below what, and
 * how a path is named relative to a workspace root. Pure; normalize/ uses these too.
 */
import { isAbsolute, relative, resolve, sep } from "node:path";

/** Whether `path` is `dir` or lies below it, lexically (both absolute and normalized). */
export function atOrBelow(dir: string, path: string): boolean {
  return path === dir || path.startsWith(dir === "/" ? "/" : `${dir}/`);
}

/** Whether `dir`, at or below `root`, lies in a hidden directory (a name starting with "."). */
export function hiddenBelow(root: string, dir: string): boolean {
  if (dir === root) return false;
  return dir
    .slice(root.length + 1)
    .split("/")
    .some((part) => part.startsWith("."));
}

/** `abs` relative to `root` as a POSIX path when lexically inside it ("." for the root), else null. */
export function relativeInside(root: string, abs: string): string | null {
  const rel = relative(root, abs);
  if (rel === "") return ".";
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  return sep === "/" ? rel : rel.split(sep).join("/");
}

/**
 * The path a `file` argument names before realpath: a relative one below the real root, an
 * absolute one as given (it may name the root through a symlinked spelling).
 */
export function candidatePath(rootReal: string, file: string): string {
  return isAbsolute(file) ? resolve(file) : resolve(rootReal, file);
}

/** A workspace root as configured and its realpath, taken once (workspace.ts). */
export interface WorkspaceRoot {
  readonly root: string;
  readonly rootReal: string;
}

/**
 * `abs` relative to the root's realpath, else to the root as configured (a path a server
 * built from the configured spelling); null outside both.
 */
export function workspaceRelative(ws: WorkspaceRoot, abs: string): string | null {
  return relativeInside(ws.rootReal, abs) ?? relativeInside(resolve(ws.root), abs);
}

/** How results name `abs`: workspace-relative inside the root, else absolute. */
export function displayPath(ws: WorkspaceRoot, abs: string): string {
  return workspaceRelative(ws, abs) ?? abs;
}
