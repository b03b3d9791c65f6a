/**
 * Workspace prerequisites declared by a server as data (issue 8): files the
 * workspace must contain before the server can answer correctly (clangd's
 * compile_commands.json). Checked at session start and by --check-config;
 * the directory found is passed to the server through `dir_arg`.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type {
  Config,
  ServerConfig,
  WorkspaceConfig,
  WorkspaceFileRequirement,
} from "../config/types.ts";
import { BridgeError } from "../errors.ts";
import { checkCompileCommands } from "./compile-commands.ts";

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
  const base = { workspace: workspace.name, server: server.name, file: path };
  if (!existsSync(path) || !statSync(path).isFile()) {
    throw new BridgeError(
      "WorkspaceFileMissing",
      `${server.name} needs ${req.file} in ${dir}, and there is none`,
      {
        hint: req.hint,
        details: base,
      },
    );
  }
  if (req.format === "compile_commands") {
    const verdict = checkCompileCommands(readFileSync(path, "utf8"));
    if (!verdict.ok) {
      throw new BridgeError("WorkspaceFileInvalid", `${path}: ${verdict.reason}`, {
        hint: req.hint,
        details: { ...base, reason: verdict.reason, entry: verdict.index },
      });
    }
  }
  return dir;
}

/** At session start: every requirement, and the extra server args they imply. */
export async function prepareWorkspaceFiles(
  workspace: WorkspaceConfig,
  server: ServerConfig,
): Promise<string[]> {
  const args: string[] = [];
  for (const req of server.requires) {
    const dir = checkRequirement(workspace, server, req);
    if (req.dir_arg !== null) args.push(req.dir_arg.replaceAll("{dir}", dir));
  }
  return args;
}

/** --check-config lines for every (workspace, server) requirement. */
export async function workspaceFileChecks(
  config: Config,
): Promise<{ ok: boolean; line: string }[]> {
  const lines: { ok: boolean; line: string }[] = [];
  for (const ws of config.workspaces) {
    for (const name of ws.servers) {
      const server = config.servers.find((s) => s.name === name);
      for (const req of server?.requires ?? []) {
        if (!server) continue;
        const key = `workspace.${ws.name}.${server.name}.requires.${req.file}`;
        try {
          const dir = checkRequirement(ws, server, req);
          lines.push({ ok: true, line: `ok   ${key} ${join(dir, req.file)}` });
        } catch (err) {
          const e = err as BridgeError;
          lines.push({ ok: false, line: `FAIL ${key} ${e.code}: ${e.message}` });
        }
      }
    }
  }
  return lines;
}
