/**
 * Routing (SPEC §4.5), pure: which workspace and which server(s) a call goes
 * to. `diagnostics` goes to servers with role `diagnostics`, every other tool
 * to servers with role `semantics`; files match by name, extension, or the
 * interpreter of their `#!` line (config/server-files.ts).
 */
import { languageOfFile } from "./config/server-files.ts";
import { standings, type Tier } from "./config/standing.ts";
import type { Config, Role, ServerConfig, WorkspaceConfig } from "./config/types.ts";
import { zeroConfigNoServerHint } from "./discovery/no-server-hint.ts";
import {
  ambiguousServer,
  noServerForFile,
  unknownServer,
  unknownWorkspace,
  workspaceRequired,
} from "./router-errors.ts";

export function resolveWorkspace(config: Config, name: string | undefined): WorkspaceConfig {
  if (name === undefined) {
    const only = config.workspaces.length === 1 ? config.workspaces[0] : undefined;
    if (only) return only;
    throw workspaceRequired(config.workspaces.map((w) => w.name));
  }
  const ws = config.workspaces.find((w) => w.name === name);
  if (!ws) {
    throw unknownWorkspace(
      name,
      config.workspaces.map((w) => w.name),
    );
  }
  return ws;
}

function serversOf(config: Config, ws: WorkspaceConfig): ServerConfig[] {
  return ws.servers
    .map((n) => config.servers.find((s) => s.name === n))
    .filter((s): s is ServerConfig => s !== undefined);
}

/**
 * The root of the workspace a call names (or the only one), for its error texts
 * (SPEC §4.6); undefined when the call names none that is configured.
 */
export function callWorkspaceRoot(config: Config, args: unknown): string | undefined {
  const name = (args as { workspace?: unknown } | undefined)?.workspace;
  if (typeof name === "string") return config.workspaces.find((w) => w.name === name)?.root;
  return config.workspaces.length === 1 ? config.workspaces[0]?.root : undefined;
}

export function serverHandlesFile(
  server: ServerConfig,
  file: string,
  interpreter?: string,
): boolean {
  return languageOfFile(server, file, interpreter) !== undefined;
}

/** What a call routes by: the server it names, its file and that file's `#!` interpreter. */
export interface RouteRequest {
  server?: string | undefined;
  file?: string | undefined;
  interpreter?: string | undefined;
  role: Role;
  /** a workspace/symbol call: servers configured with `workspace_symbols = false` are no candidates */
  workspaceSymbols?: true;
}

/**
 * All servers a call may go to. With an explicit `server` that is the one
 * (it must belong to the workspace); otherwise by role, then by file.
 */
export function candidateServers(
  config: Config,
  ws: WorkspaceConfig,
  req: RouteRequest,
): ServerConfig[] {
  const all = serversOf(config, ws);
  if (req.server !== undefined) {
    const chosen = all.find((s) => s.name === req.server);
    if (!chosen) {
      throw unknownServer(
        ws.name,
        req.server,
        all.map((s) => s.name),
      );
    }
    return [chosen];
  }
  const byRole = all.filter(
    (s) =>
      s.roles.includes(req.role) && (req.workspaceSymbols === undefined || s.workspace_symbols),
  );
  const file = req.file;
  const matching =
    file === undefined ? byRole : byRole.filter((s) => serverHandlesFile(s, file, req.interpreter));
  if (matching.length === 0) {
    const zeroHint =
      config.discovery && zeroConfigNoServerHint(config.discovery, file, req.interpreter);
    throw noServerForFile(ws.name, req.role, file, zeroHint);
  }
  return matching;
}

/** Who answers a call naming no file first: the project's sources, then test data and tooling, then data files. */
const NO_FILE_GROUPS: readonly (readonly Tier[])[] = [["main", "source"], ["incidental"], ["data"]];

/**
 * A call naming neither file nor server (`workspace_symbols`, `session_restart`, SPEC §4.5):
 * of its candidates, those of the first group of NO_FILE_GROUPS that has any.
 */
export function preferSources(
  config: Config,
  ws: WorkspaceConfig,
  candidates: ServerConfig[],
): ServerConfig[] {
  const tiers = new Map(standings(config, ws).map((s) => [s.server.name, s.tier]));
  for (const group of NO_FILE_GROUPS) {
    const chosen = candidates.filter((s) => group.includes(tiers.get(s.name) ?? "source"));
    if (chosen.length > 0) return chosen;
  }
  return candidates;
}

/** Exactly one server, or AmbiguousServer with the candidates. */
export function routeOne(config: Config, ws: WorkspaceConfig, req: RouteRequest): ServerConfig {
  const all = candidateServers(config, ws, req);
  const noFile = req.server === undefined && req.file === undefined;
  const candidates = noFile && all.length > 1 ? preferSources(config, ws, all) : all;
  const [first, ...rest] = candidates;
  if (!first) throw new Error("unreachable: candidateServers never returns empty");
  if (rest.length > 0) {
    throw ambiguousServer(
      ws.name,
      candidates.map((s) => s.name),
    );
  }
  return first;
}
