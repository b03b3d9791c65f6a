/**
 * Workspace prerequisites declared by a server as data (SPEC §3.4): files the
 * workspace must contain before the server can answer correctly (clangd's
 * compile_commands.json). Checked at session start and by --check-config;
 * the directory found is passed to the server through `dir_arg`.
 */
import { isAbsolute, join, resolve } from "node:path";
import { type CheckResult, checkLine } from "../config/check-line.ts";
import type {
  Config,
  ServerConfig,
  WorkspaceConfig,
  WorkspaceFileRequirement,
} from "../config/types.ts";
import { BridgeError, type ErrorEnvelope, isBridgeError, toEnvelope } from "../errors.ts";
import { log } from "../log.ts";
import { checkCompileCommands } from "./compile-commands.ts";
import { readWorkspaceText, statWorkspaceFile } from "./confined.ts";
import { realRoot } from "./files.ts";
import { requiredFileInvalid, requiredFileMissing } from "./requirement-errors.ts";

/**
 * A compile database larger than this is not parsed by the bridge (the server still reads
 * it): checking it would hold the whole file in memory at every session start.
 */
export const MAX_CHECKED_BYTES = 64 * 1024 * 1024;

/** Where a required file is looked for: the workspace's `file_dirs` entry, else the root. */
export function requirementDir(workspace: WorkspaceConfig, req: WorkspaceFileRequirement): string {
  const configured = workspace.file_dirs[req.file];
  // the schema keeps these relative and inside the root (no `..`)
  return configured === undefined ? workspace.root : resolve(workspace.root, configured);
}

/** Check one requirement; returns the directory holding the file. */
export function checkRequirement(
  workspace: WorkspaceConfig,
  server: ServerConfig,
  req: WorkspaceFileRequirement,
): string {
  const dir = requirementDir(workspace, req);
  const path = join(dir, req.file);
  const required = { workspace: workspace.name, server: server.name, file: path, fix: req.hint };
  const missing = (err: unknown): unknown =>
    err instanceof BridgeError ? requiredFileMissing(required, err.message) : err;
  const invalid = (reason: string, entry: number | null) =>
    requiredFileInvalid(required, reason, entry);
  // opened beneath the root (SPEC §8.1): a link leading out, a FIFO or a device is missing
  if (req.format !== "compile_commands") {
    try {
      statWorkspaceFile(realRoot(workspace.root), path);
    } catch (err) {
      throw missing(err);
    }
    return dir;
  }
  let text: string;
  try {
    text = readWorkspaceText(realRoot(workspace.root), path, MAX_CHECKED_BYTES).text;
  } catch (err) {
    if (isBridgeError(err, "FileTooLarge")) {
      log.info(`${path} is over ${MAX_CHECKED_BYTES} bytes: present, not checked`);
      return dir;
    }
    if (isBridgeError(err, "NotUtf8")) throw invalid("not valid UTF-8", null);
    throw missing(err);
  }
  const verdict = checkCompileCommands(text);
  if (!verdict.ok) throw invalid(verdict.reason, verdict.index);
  return dir;
}

/** session_status: each prerequisite of the pair, met or the error a start would give. */
export function workspaceFileStatus(
  workspace: WorkspaceConfig,
  server: ServerConfig,
): { file: string; ok: boolean; error?: ErrorEnvelope }[] {
  return server.requires.map((req) => {
    try {
      checkRequirement(workspace, server, req);
      return { file: req.file, ok: true };
    } catch (err) {
      return { file: req.file, ok: false, error: toEnvelope(err) };
    }
  });
}

/** What a session start takes from its requirements: extra server args, files to place. */
export interface PreparedFiles {
  args: string[];
  /** files the server reads from a directory of the session's own (`private_copy`) */
  files: { name: string; data: Uint8Array }[];
}

/**
 * At session start: every requirement, and the extra server args they imply. A
 * `private_copy` requirement's file is copied for the session, and `dir_arg` names
 * `privateDir` (its own TMPDIR, `null` where it has none): what the server writes beside
 * that file (clangd's index, next to its compile database) is then the session's own,
 * gone with it, and a new life starts from nothing stale (SPEC §3.4).
 */
export function prepareWorkspaceFiles(
  workspace: WorkspaceConfig,
  server: ServerConfig,
  privateDir: string | null,
): PreparedFiles {
  const out: PreparedFiles = { args: [], files: [] };
  for (const req of server.requires) {
    let dir = checkRequirement(workspace, server, req);
    const copy = req.private_copy && privateDir !== null ? copyable(workspace, dir, req) : null;
    if (copy !== null && privateDir !== null) {
      out.files.push({ name: req.file, data: copy });
      dir = privateDir;
    }
    if (req.dir_arg !== null) out.args.push(req.dir_arg.replaceAll("{dir}", dir));
  }
  return out;
}

/**
 * The bytes of a required file to copy, or null to leave it where it is: too large to
 * hold, or a compile database with an entry whose `directory` is relative (it would then
 * resolve against the copy's place).
 */
function copyable(
  workspace: WorkspaceConfig,
  dir: string,
  req: WorkspaceFileRequirement,
): Uint8Array | null {
  try {
    const { text } = readWorkspaceText(
      realRoot(workspace.root),
      join(dir, req.file),
      MAX_CHECKED_BYTES,
    );
    if (req.format === "compile_commands") {
      const entries = JSON.parse(text) as { directory?: unknown }[];
      if (entries.some((e) => typeof e.directory !== "string" || !isAbsolute(e.directory))) {
        return null;
      }
    }
    return Buffer.from(text, "utf8");
  } catch {
    return null;
  }
}

/** --check-config lines for every (workspace, server) requirement. */
export function workspaceFileChecks(config: Config): CheckResult[] {
  const lines: CheckResult[] = [];
  for (const ws of config.workspaces) {
    for (const name of ws.servers) {
      const server = config.servers.find((s) => s.name === name);
      if (!server) continue; // validation names only configured servers
      for (const req of server.requires) {
        const key = `workspace.${ws.name}.${server.name}.requires.${req.file}`;
        try {
          const dir = checkRequirement(ws, server, req);
          lines.push(checkLine(true, key, join(dir, req.file)));
        } catch (err) {
          const e = err as BridgeError;
          lines.push(checkLine(false, key, `${e.code}: ${e.message}`));
        }
      }
    }
  }
  return lines;
}
