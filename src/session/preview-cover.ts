/**
 * What a preview cannot show (SPEC §6.2), besides runs over the disk (preview.ts): a
 * server reads some files from disk and never as documents — its configuration
 * (`restart_on`, `reload_on`, `package_manifest`) — so another server's document of such a
 * file is not what it answers from; and a server looks on disk for what a file names, where
 * a new file is not, so what imports or includes a new file may be reported unresolved.
 * Pure: the routing and the files' existence are given.
 */
import { basename } from "node:path";
import type { ServerConfig } from "../config/types.ts";

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

/** Of `rels`, those `server` reads as its own configuration. */
export function readFromDisk(server: ServerConfig, rels: readonly string[]): string[] {
  const globs = [...server.restart_on, ...server.reload_on].map((g) => new Bun.Glob(g));
  const manifest = server.package_manifest;
  return rels.filter((rel) => globs.some((g) => g.match(rel)) || basename(rel) === manifest);
}

/** What each of the workspace's servers cannot be shown by this preview, by server name. */
export function diskUncovered(
  servers: readonly ServerConfig[],
  proposed: readonly ProposedFile[],
): DiskUncovered[] {
  const out: DiskUncovered[] = [];
  for (const server of servers) {
    const others = proposed.filter((p) => p.server !== server.name).map((p) => p.rel);
    const read = readFromDisk(server, others);
    if (read.length > 0) out.push(entry(server.name, read, READ_FROM_DISK));
    const fresh = proposed.filter((p) => p.server === server.name && !p.exists);
    if (fresh.length > 0)
      out.push(
        entry(
          server.name,
          fresh.map((p) => p.rel),
          NEW_FILES,
        ),
      );
  }
  return out;
}

function entry(server: string, files: string[], reason: string): DiskUncovered {
  return { server, channel: "disk", files: [...files].sort(), reason };
}
