/**
 * The validated configuration (SPEC §3), inferred from schema.ts: defaults filled in, absent
 * optional keys null. Everything downstream reads only these, never raw TOML.
 */
import type { z } from "zod";
import type { BridgeSchema, ServerSchema, WorkspaceSchema } from "./schema.ts";

export type BridgeConfig = z.output<typeof BridgeSchema>;
export type LogConfig = BridgeConfig["log"];
export type WorkspaceConfig = z.output<typeof WorkspaceSchema>;
export type ServerConfig = z.output<typeof ServerSchema>;
/** SPEC §3.3 */
export type ReadyConfig = ServerConfig["ready"];
export type WorkspaceFileRequirement = ServerConfig["requires"][number];

export type ColumnUnit = BridgeConfig["column_unit"];
export type MutationMode = BridgeConfig["mutation"];
export type LogLevel = LogConfig["level"];
export type Role = ServerConfig["roles"][number];
/** Where a server stands in its workspace (SPEC §9.1, standing.ts) */
export type Tier = "main" | "source" | "incidental" | "data";

export interface Config {
  bridge: BridgeConfig;
  workspaces: WorkspaceConfig[];
  servers: ServerConfig[];
  /** where it came from: a file path, or "zero-config" */
  source: string;
  /** zero-config only: how the servers were chosen (SPEC §2.1) */
  discovery?: DiscoveryReport;
}

/** One preset as discovery saw it (SPEC §2.1): configured with the binary found, or left out. */
export interface DiscoveredPreset {
  name: string;
  /** the names looked up, in the workspace's node_modules/.bin directories, then on PATH */
  binaries: string[];
  extensions: string[];
  status: "configured" | "left_out";
  command: string | null;
  version: string | null;
  /** why it serves these files with this binary, or why it was left out */
  why: string;
  /** configured: the files here it serves, in the project and under test data or tooling */
  files?: { project: number; aside: number };
  /** configured: where it stands in the workspace (SPEC §9.1) */
  tier?: Tier;
}

/** One root the MCP client listed (SPEC §2.1), and whether it is served. */
export interface ClientRoot {
  uri: string;
  served: boolean;
  why: string;
}

/** What zero-config looked at and decided (SPEC §2.1), shown by session_status. */
export interface DiscoveryReport {
  root: string;
  /** directories searched for binaries before PATH, nearest first */
  workspace_bins: string[];
  scan: {
    entries: number;
    truncated: boolean;
    extensions: string[];
    /** interpreters the `#!` lines of files without an extension name */
    interpreters?: string[];
  };
  toolchain: {
    typescript: { version: string; package: string } | null;
    python: { interpreter: string } | null;
  };
  servers: DiscoveredPreset[];
  /** discovery itself failed (the bridge serves with no server) */
  error?: string;
  /** zero-config does not serve this directory: why, and how to point it at a workspace */
  refused?: { reason: string; hint: string };
  /** the working directory was refused: the client's roots (`null`: none offered) */
  roots?: { started_in: string; asked: string; listed: ClientRoot[] | null };
}
