/**
 * The validated configuration (SPEC §3). `schema.ts` turns TOML into these
 * types; everything downstream reads only these, never raw TOML.
 */

export type ColumnUnit = "code-point" | "utf-16" | "utf-8";
export type MutationMode = "off" | "gated";
export type Role = "semantics" | "diagnostics";
export type LogLevel = "error" | "warn" | "info" | "debug";

/**
 * How the bridge knows a file's diagnostics are settled after a sync (SPEC §6).
 * - `version`: a publish carrying the synced document version (clangd, pyright)
 * - `publish`: any publish for the file after the sync (servers whose pushes carry no version)
 * - `quiescent`: rust-analyzer style `experimental/serverStatus` quiescent after the change
 * - `pull`: the pull response alone (pull-only servers)
 * - `progress`: a check run matching `diagnostics_progress` has ended and none is active
 *   (bacon-ls publishes partial snapshots while its check runs)
 * Whatever the rule, a running task matching `diagnostics_progress` is waited for
 * (rust-analyzer's `cargo check` pushes arrive after quiescence).
 */
export type SettleRule = "version" | "publish" | "quiescent" | "pull" | "progress";

export interface ProbeConfig {
  method: string;
  params: unknown;
}

/** SPEC §3.3 — the keys are exactly these. */
export interface ReadyConfig {
  quiescent: boolean;
  progress: string[];
  progress_required: boolean;
  warmup_open: string | null;
  log_message: string | null;
  probe: ProbeConfig | null;
}

/**
 * A file the workspace must contain before the server can answer correctly
 * (issue 8: clangd's compile_commands.json). `dir_arg` is appended to the
 * server's args with `{dir}` replaced by the absolute directory found.
 */
export interface WorkspaceFileRequirement {
  file: string;
  format: "compile_commands" | "any";
  dir_arg: string | null;
  hint: string;
}

export interface ServerConfig {
  name: string;
  command: string;
  args: string[];
  version: string;
  version_args: string[];
  version_command: string[] | null;
  languages: string[];
  /** extension without dot → languageId */
  extensions: Record<string, string>;
  roles: Role[];
  env: Record<string, string>;
  env_passthrough: string[];
  initialization_options: Record<string, unknown>;
  settings: Record<string, unknown>;
  ready: ReadyConfig;
  diagnostics_settle: SettleRule;
  /** $/progress title or token patterns of the server's diagnostics runs (SPEC §6) */
  diagnostics_progress: string[];
  requires: WorkspaceFileRequirement[];
}

export interface WorkspaceConfig {
  name: string;
  root: string;
  servers: string[];
  /** server-relative directories for required files, e.g. { "compile_commands.json" = "build" } */
  file_dirs: Record<string, string>;
}

export interface LogConfig {
  level: LogLevel;
  /** absolute path of a log file, or null for stderr only */
  file: string | null;
  max_bytes: number;
  max_files: number;
}

export interface BridgeConfig {
  max_sessions: number;
  shutdown_grace_ms: number;
  request_timeout_ms: number;
  ready_timeout_ms: number;
  max_result_bytes: number;
  max_file_bytes: number;
  max_open_documents: number;
  column_unit: ColumnUnit;
  mutation: MutationMode;
  mutation_allowlist: string[];
  setpriv: string;
  /** workspace_symbols query length bound (issue 8; clangd bridge default 128) */
  max_query_length: number;
  /** upper bound for `limit` on list tools (issue 8; clangd bridge default 200) */
  max_limit: number;
  log: LogConfig;
}

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
}

/** What zero-config looked at and decided (SPEC §2.1), shown by session_status. */
export interface DiscoveryReport {
  root: string;
  /** directories searched for binaries before PATH, nearest first */
  workspace_bins: string[];
  scan: { entries: number; truncated: boolean; extensions: string[] };
  toolchain: {
    typescript: { version: string; package: string } | null;
    python: { interpreter: string } | null;
  };
  servers: DiscoveredPreset[];
  /** discovery itself failed (the bridge serves with no server) */
  error?: string;
}
