/**
 * What a preview cannot show (SPEC §6.2), besides runs over the disk (preview.ts), pure: a
 * proposed text reaches one server as a document; every server that may read the file from
 * disk (by `reads`, language, sources beside or above it, or as its configuration) does not
 * see it, and a new file is not on disk where a server looks for what a file names.
 */
import { basename, dirname, extname } from "node:path";
import type { ServerConfig } from "../config/types.ts";
import { globs } from "../workspace/file-events.ts";

export const NEW_FILES =
  "new files: the server looks on disk for what a file names, where these are not; errors resolving them may not hold";
export const READ_FROM_DISK =
  "read by this server from disk, not as documents: the preview does not reach it";

export interface DiskUncovered {
  server: string;
  channel: "disk";
  /** workspace-relative, sorted */
  files: string[];
  reason: string;
}

/** A proposed file: where it goes, whether it is on disk. */
export interface ProposedFile {
  rel: string;
  /** the server whose document it becomes */
  server: string;
  exists: boolean;
}

/** Whether a workspace-relative directory ("." the root) holds a file with one of `exts`. */
export type HoldsSource = (dir: string, exts: ReadonlySet<string>) => boolean;

/** What each of the workspace's servers cannot be shown by this preview. */
export function diskUncovered(
  servers: readonly ServerConfig[],
  proposed: readonly ProposedFile[],
  holdsSource: HoldsSource,
): DiskUncovered[] {
  const out: DiskUncovered[] = [];
  for (const server of servers) {
    const reader = readerOf(server, holdsSource);
    const read = proposed.filter((p) => reader(p.rel, p.server === server.name)).map((p) => p.rel);
    if (read.length > 0) out.push(entry(server.name, read, READ_FROM_DISK));
    const fresh = proposed.filter((p) => p.server === server.name && !p.exists);
    if (fresh.length > 0) {
      out.push(
        entry(
          server.name,
          fresh.map((p) => p.rel),
          NEW_FILES,
        ),
      );
    }
  }
  return out;
}

/** Whether `server` reads a file from disk: as its own document (`own`), or another's. */
function readerOf(server: ServerConfig, holdsSource: HoldsSource) {
  const restart = globs(server.restart_on);
  const reload = globs(server.reload_on);
  const reads = globs(server.reads);
  const exts = new Set(Object.keys(server.extensions));
  const matches = (globs: Bun.Glob[], rel: string) => globs.some((g) => g.match(rel));
  return (rel: string, own: boolean): boolean => {
    const source = exts.has(extname(rel).slice(1));
    const configuration =
      matches(reload, rel) ||
      basename(rel) === server.package_manifest ||
      (matches(restart, rel) && !(own && source));
    // a data-file server reads other data files from disk (a JSON schema, a `$ref`)
    if (own) return configuration || server.data_files;
    if (configuration) return true;
    if (!server.reads.includes("**")) return matches(reads, rel);
    // sources read what lies beside or below them; data files name only data files
    return source || (!server.data_files && aboveSources(rel, exts, holdsSource));
  };
}

/** Whether the file's directory, or one above it in the workspace, holds such sources. */
function aboveSources(rel: string, exts: ReadonlySet<string>, holds: HoldsSource): boolean {
  for (let dir = dirname(rel); ; dir = dirname(dir)) {
    if (holds(dir, exts)) return true;
    if (dir === ".") return false;
  }
}

function entry(server: string, files: string[], reason: string): DiskUncovered {
  return { server, channel: "disk", files: [...files].sort(), reason };
}
