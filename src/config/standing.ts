/**
 * Where each server of a workspace stands (SPEC §9.1), pure, from the configuration alone:
 * `main` (the first source server and those sharing a file kind with it), `source`,
 * `incidental`, `data`. Tiers, then the workspace's list, rank the servers.
 */
import type { Config, ServerConfig, Tier, WorkspaceConfig } from "./types.ts";

export type { Tier } from "./types.ts";

/** Lower stands higher. */
export const TIER_RANK: Readonly<Record<Tier, number>> = Object.freeze({
  main: 0,
  source: 1,
  incidental: 2,
  data: 3,
});

export interface Standing {
  server: ServerConfig;
  tier: Tier;
  /** its place in the workspace's `servers` list */
  position: number;
}

/** Extensions and file names: what a server is routed by, for "shares a file kind". */
function fileKinds(s: Partial<ServerConfig>): string[] {
  return [
    ...Object.keys(s.extensions ?? {}).map((e) => `.${e}`),
    ...Object.keys(s.filenames ?? {}),
    ...Object.keys(s.shebangs ?? {}).map((i) => `#!${i}`),
  ];
}

/** Every server of `ws`, in its list's order, with its tier. */
export function standings(config: Config, ws: WorkspaceConfig): Standing[] {
  const servers = ws.servers
    .map((name) => config.servers.find((s) => s.name === name))
    .filter((s): s is ServerConfig => s !== undefined);
  const incidental = new Set(ws.incidental ?? []);
  const ofSource = (s: ServerConfig) => !s.data_files && !incidental.has(s.name);
  const first = servers.find(ofSource);
  const mainKinds = new Set(first ? fileKinds(first) : []);
  return servers.map((server, position) => {
    let tier: Tier = "source";
    if (server.data_files) tier = "data";
    else if (incidental.has(server.name)) tier = "incidental";
    else if (server === first || fileKinds(server).some((k) => mainKinds.has(k))) tier = "main";
    return { server, tier, position };
  });
}

/** Orders standings: higher tier first, then the workspace's list. */
export function byStanding(
  a: { tier: Tier; position: number },
  b: { tier: Tier; position: number },
): number {
  return TIER_RANK[a.tier] - TIER_RANK[b.tier] || a.position - b.position;
}
