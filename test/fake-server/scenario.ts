/**
 * What the fake language server does, as data (SPEC §11: a scriptable fake
 * for fault paths). Given as JSON in FAKE_LS_SCENARIO and/or `--scenario
 * <json>` (the argument's keys win). Every key is optional; add new behaviour
 * as new keys with a default that keeps old scenarios unchanged.
 */
import type { ServerCapabilities } from "vscode-languageserver-protocol";

export type DaemonKind = "group" | "setsid";

export interface DaemonSpec {
  /** group: a grandchild that stays in the server's process group; setsid: leaves it by setsid + double fork */
  kind: DaemonKind;
  /** where the daemon writes its own pid (atomically) once it runs */
  pidfile: string;
  /** whether it keeps the server's stdio open (default: group inherit, setsid ignore) */
  stdio?: "inherit" | "ignore";
}

export interface Scenario {
  /** initialize result capabilities (default: DEFAULT_CAPABILITIES) */
  capabilities?: ServerCapabilities;
  serverInfo?: { name: string; version?: string };
  /** the server writes its own pid here at start */
  pidfile_server?: string;
  /** shorthand for one daemon: `daemon` + `pidfile` */
  daemon?: DaemonKind;
  pidfile?: string;
  daemons?: DaemonSpec[];
  /** crash this long after start: exit with `exit_code` (default 3), or die by `exit_signal` */
  crash_after_ms?: number;
  /** crash on receiving any of these methods (request or notification) */
  crash_on?: string[];
  exit_code?: number;
  /** e.g. "SIGSEGV": the crash kills the server with this signal */
  exit_signal?: string;
  /** never answer `shutdown` */
  hang_on_shutdown?: boolean;
  /** keep running after stdin EOF (bash-language-server does, LANGUAGE-SERVERS.md) */
  ignore_stdin_eof?: boolean;
  /** after `initialized`, write these non-LSP bytes to stdout (true: a default line) */
  garbage_stdout?: boolean | string;
  /** written to stderr at start, one per line */
  stderr_lines?: string[];
  /** canned results for requests, by method */
  responses?: Record<string, unknown>;
  /** append every received message as one JSON line to this file */
  record?: string;
}

export const DEFAULT_CAPABILITIES: ServerCapabilities = {
  textDocumentSync: 1, // TextDocumentSyncKind.Full
  definitionProvider: true,
  referencesProvider: true,
  hoverProvider: true,
  documentSymbolProvider: true,
  workspaceSymbolProvider: true,
};

export const DEFAULT_GARBAGE = "this is not LSP\r\n\r\n";

function parseJsonObject(text: string, where: string): Scenario {
  const value: unknown = JSON.parse(text);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`${where}: the scenario must be a JSON object`);
  }
  return value as Scenario;
}

/** Merge the env scenario and the `--scenario` argument (argument wins, key by key). */
export function loadScenario(argv: string[], env: Record<string, string | undefined>): Scenario {
  let scenario: Scenario = {};
  const fromEnv = env.FAKE_LS_SCENARIO;
  if (fromEnv !== undefined && fromEnv !== "") {
    scenario = parseJsonObject(fromEnv, "FAKE_LS_SCENARIO");
  }
  const at = argv.indexOf("--scenario");
  if (at >= 0) {
    const text = argv[at + 1];
    if (text === undefined) throw new Error("--scenario needs a JSON argument");
    scenario = { ...scenario, ...parseJsonObject(text, "--scenario") };
  }
  return scenario;
}

/** The daemons to start: `daemons` plus the `daemon`/`pidfile` shorthand. */
export function daemonsOf(s: Scenario): DaemonSpec[] {
  const list = [...(s.daemons ?? [])];
  if (s.daemon !== undefined) {
    if (s.pidfile === undefined) throw new Error("`daemon` needs `pidfile`");
    list.push({ kind: s.daemon, pidfile: s.pidfile });
  }
  return list;
}
