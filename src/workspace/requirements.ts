/**
 * Workspace prerequisites declared by a server (issue 8). Filled in by the
 * workspace-files work; until a server declares `requires`, nothing is checked.
 */
import type { Config, ServerConfig, WorkspaceConfig } from "../config/types.ts";

export async function prepareWorkspaceFiles(
  _workspace: WorkspaceConfig,
  server: ServerConfig,
): Promise<string[]> {
  if (server.requires.length === 0) return [];
  return [];
}

/** --check-config lines for workspace prerequisites (issue 8). */
export async function workspaceFileChecks(
  _config: Config,
): Promise<{ ok: boolean; line: string }[]> {
  return [];
}
