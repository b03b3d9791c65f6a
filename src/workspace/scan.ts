/**
 * Walking a workspace for files (the warm-up file, SPEC §3.3; discovery, §2.1) without
 * trusting it (SPEC §8.1): every directory is opened by handle beneath the root without
 * following links and listed through that handle, so a directory swapped for a link never
 * lists anything outside. What cannot be listed (permissions, entries vanishing mid-scan,
 * /proc under root "/") is skipped and counted, never an error; the walk is bounded.
 *
 * Files come in sorted workspace-relative order — the order of `<` on the paths — so the
 * first match is the smallest: siblings are visited by name, a directory's name compared
 * as `name/` (that is where its files sort).
 */
import { closeSync, type Dirent, readdirSync } from "node:fs";
import { OPEN, openAt } from "../ffi/syscalls.ts";

export interface ScanLimits {
  /** directory entries looked at, in all */
  maxEntries: number;
  /** deeper directories are not entered */
  maxDepth?: number;
}

export interface ScanReport {
  entries: number;
  /** the walk stopped at maxEntries */
  truncated: boolean;
  /** directories that could not be opened or listed */
  unreadableDirs: number;
}

const DEFAULT_MAX_DEPTH = 64;
/** entries between two yields to the event loop, so a long walk never stalls the bridge */
const YIELD_EVERY = 2000;

/** Dot entries and node_modules are never searched (SPEC §3.3). */
function skipped(name: string): boolean {
  return name.startsWith(".") || name === "node_modules";
}

function sortKey(d: Dirent): string {
  return d.isDirectory() ? `${d.name}/` : d.name;
}

function listDir(fd: number): Dirent[] {
  return readdirSync(`/proc/self/fd/${fd}`, { withFileTypes: true })
    .filter((d) => !skipped(d.name) && (d.isDirectory() || d.isFile()))
    .sort((a, b) => {
      const ka = sortKey(a);
      const kb = sortKey(b);
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
}

interface Frame {
  fd: number;
  prefix: string;
  entries: Dirent[];
  next: number;
}

/**
 * Regular files beneath the root's realpath `rootReal`, as workspace-relative POSIX paths in
 * sorted order. Links are neither files nor followed. `report` is filled in as the walk goes.
 */
export async function* workspaceFiles(
  rootReal: string,
  limits: ScanLimits,
  report: ScanReport,
): AsyncGenerator<string> {
  const maxDepth = limits.maxDepth ?? DEFAULT_MAX_DEPTH;
  const stack: Frame[] = [];
  const enter = (parentFd: number | null, name: string, prefix: string): void => {
    let fd: number | undefined;
    try {
      fd = openAt(parentFd, name, OPEN.dirStep);
      stack.push({ fd, prefix, entries: listDir(fd), next: 0 });
    } catch {
      if (fd !== undefined) closeSync(fd);
      report.unreadableDirs++;
    }
  };
  try {
    enter(null, rootReal, "");
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as Frame;
      const entry = top.entries[top.next++];
      if (entry === undefined) {
        closeSync(top.fd);
        stack.pop();
        continue;
      }
      if (report.entries >= limits.maxEntries) {
        report.truncated = true;
        return;
      }
      report.entries++;
      if (report.entries % YIELD_EVERY === 0) await new Promise((r) => setImmediate(r));
      const rel = `${top.prefix}${entry.name}`;
      if (entry.isFile()) yield rel;
      else if (stack.length < maxDepth) enter(top.fd, entry.name, `${rel}/`);
    }
  } finally {
    for (const frame of stack) closeSync(frame.fd);
  }
}

export function emptyReport(): ScanReport {
  return { entries: 0, truncated: false, unreadableDirs: 0 };
}
