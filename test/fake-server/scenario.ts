/**
 * What the fake language server does, as data (SPEC §11: a scriptable fake
 * for fault paths). Given as JSON in FAKE_LS_SCENARIO and/or `--scenario
 * <json>` (the argument's keys win). Every key is optional; add new behaviour
 * as new keys with a default that keeps old scenarios unchanged.
 */
import type { ServerCapabilities, WorkspaceEdit } from "vscode-languageserver-protocol";
import type { LineProbe } from "./line-probe.ts";

export type DaemonKind = "group" | "setsid" | "hop";

export interface DaemonSpec {
  /**
   * group: a grandchild that stays in the server's process group; setsid: leaves it by
   * setsid + double fork; hop: leaves it and then re-forks every `interval_ms`, each parent
   * exiting at once (./hopper.ts; `pidfile` is its tag, in every hop's command line)
   */
  kind: DaemonKind;
  /** where the daemon writes its own pid (atomically) once it runs */
  pidfile: string;
  /** hop: between two forks (default 1) */
  interval_ms?: number;
  /** hop: each hop ends by itself after this long (default 15000) */
  lifetime_ms?: number;
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
  /** never answer `initialize` */
  hang_on_initialize?: boolean;
  /** keep running after stdin EOF (docs/LANGUAGE-SERVERS.md#servers-that-outlive-their-stdin) */
  ignore_stdin_eof?: boolean;
  /** SIGSTOP the parent (the supervisor) at start, after starting the daemons */
  stop_parent?: boolean;
  /** after `initialized`, write these non-LSP bytes to stdout (true: a default line) */
  garbage_stdout?: boolean | string;
  /** written to stderr at start, one per line */
  stderr_lines?: string[];
  /** canned results for requests, by method */
  responses?: Record<string, unknown>;
  /** append every received message as one JSON line to this file */
  record?: string;

  // ---- readiness signals (SPEC §3.3) ----
  /** work-done progress tasks; each first asks `window/workDoneProgress/create` (like clangd) */
  progress?: ProgressSpec[];
  /** `experimental/serverStatus` notifications (rust-analyzer) */
  server_status?: ServerStatusSpec[];
  /** `window/logMessage` notifications */
  log_messages?: LogMessageSpec[];
  /** fail `workspace/symbol` this many times with an error before answering */
  probe_fail_times?: number;

  // ---- server requests the client must answer ----
  /** after `initialized`, ask `workspace/configuration` for this section and answer nothing else until it is answered */
  require_configuration?: { section: string };
  /** after `initialized`, register `textDocument/diagnostic` dynamically (pyright) */
  register_pull_diagnostics?: boolean;
  /** on receiving this method, send `workspace/applyEdit` and wait for the answer before replying */
  apply_edit_on?: string;
  /** the edit sent by `apply_edit_on` (default: replace line 1 of the request's document) */
  apply_edit?: WorkspaceEdit;
  /** arbitrary server → client requests; answers (result or error) are recorded */
  server_requests?: ServerRequestSpec[];

  // ---- diagnostics ----
  /** published for every didOpen/didChange, with the document's version */
  publish_on_sync?: DiagnosticSpec[];
  /** false: publishes carry no `version` (default true) */
  publish_version?: boolean;
  /** also publish one diagnostic per match of `pattern` in the synced text (ASCII columns) */
  publish_matches?: { pattern: string; message: string; severity?: number };
  /** publish this long after the sync (a stale set stays visible meanwhile) */
  publish_delay_ms?: number;
  /**
   * publishes from a worker pool (rust-analyzer): held until a progress task ends, then sent
   * `delay_ms` later — or at once when a request of `method` arrives, answered after them
   * (the pool runs its jobs in order); meanwhile other requests are answered at once
   */
  publish_pool?: {
    method: string;
    delay_ms: number;
    /**
     * a run's publishes of one file cross on the pool's threads: each is preceded by an
     * earlier one holding only its first item, and a run's are sent newest first
     */
    crossed?: boolean;
  };
  /** a didClose is answered by publishing the file's newest diagnostics again (rust-analyzer) */
  republish_on_close?: boolean;
  /** the `textDocument/diagnostic` answer's items */
  pull_diagnostics?: DiagnosticSpec[];

  // ---- results ----
  /** answer these methods only after a delay (cancellable by `$/cancelRequest`) */
  response_delay_ms?: Record<string, number>;
  /** answer `-32801 ContentModified` this many times first */
  content_modified_times?: Record<string, number>;
  /** answer these methods with an error */
  error_on?: Record<string, { code: number; message: string }>;
  /** generate this many items for a list method (locations, symbols, diagnostics) */
  huge?: Record<string, number>;
  /** answer `textDocument/documentSymbol` with one symbol per match of this pattern in the synced text */
  symbols_from_text?: string;
  /** answer every request after `initialize` with seeded random JSON (fuzz.ts) */
  fuzz?: FuzzSpec;
  /** answered as `capabilities.positionEncoding` */
  encoding?: "utf-8" | "utf-16" | "utf-32";
  /** count lines in a model of its own and answer hover and references from the text (./line-probe.ts) */
  line_probe?: LineProbe;

  // ---- code actions and rename ----
  /** the `textDocument/codeAction` answer */
  code_actions?: unknown[];
  /** `codeAction/resolve`: the edit to attach, by action title */
  resolve?: Record<string, WorkspaceEdit>;
  /** the `textDocument/rename` answer */
  rename_edit?: WorkspaceEdit | null;
  /** successive `textDocument/rename` answers, the last one repeated (wins over `rename_edit`) */
  rename_edits?: (WorkspaceEdit | null)[];
  /** the `textDocument/prepareRename` answer (null: nothing renameable) */
  prepare_rename?: unknown;

  // ---- completion ----
  /** `completionItem/resolve`: fields merged into the item sent, by its label (others: as sent) */
  completion_resolve?: Record<string, Record<string, unknown>>;

  /** rewrite this JSON file (atomically) with everything the server has seen, after every change */
  state_file?: string;
}

export interface FuzzSpec {
  seed: number;
  /** URIs the random answers name (files inside and outside the root, FIFOs, devices) */
  uris: string[];
}

/** When something happens: `after_ms` from `initialized`, or on receiving `on` (then `after_ms` later). */
export interface Timing {
  after_ms?: number;
  on?: string;
}

export interface ProgressSpec {
  token: string;
  title: string;
  /** begin this long after `initialized` (default 0) … */
  begin_after_ms?: number;
  /** … or whenever this method arrives while the task is not running */
  begin_on?: string;
  /** `report`s after the begin; `after_ms` is the delay after the previous message */
  steps?: { message?: string; percentage?: number; after_ms?: number }[];
  /** end this long after the begin … */
  end_after_ms?: number;
  /** … or when this method arrives; neither: right after the steps */
  end_on?: string;
}

export interface ServerStatusSpec extends Timing {
  health: string;
  quiescent: boolean;
  message?: string;
}

export interface LogMessageSpec extends Timing {
  text: string;
  /** MessageType, default 3 (Info) */
  type?: number;
}

export interface ServerRequestSpec extends Timing {
  method: string;
  params?: unknown;
}

export interface DiagnosticSpec {
  message: string;
  severity?: number;
  line: number;
  character: number;
  end_character: number;
  /** default `line` */
  end_line?: number;
  code?: string | number;
  source?: string;
  /** the server's own data (sent back to it with code action requests) */
  data?: unknown;
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
