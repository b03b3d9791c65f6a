/**
 * SPEC §3: validateConfig rejects every invalid or ambiguous configuration with
 * ConfigInvalid naming the key path, and fills every default.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { validateConfig } from "../../../src/config/validate.ts";
import { BridgeError } from "../../../src/errors.ts";
import { removeTempDirs, tempDir } from "../../support/temp-dirs.ts";

const tmp = tempDir("theodolite-config-");
const rootA = join(tmp, "a");
const rootB = join(tmp, "b");
const aFile = join(tmp, "file.txt");
for (const d of [rootA, rootB]) Bun.spawnSync(["mkdir", "-p", d]);
writeFileSync(aFile, "x");
afterAll(removeTempDirs);

// biome-ignore lint/suspicious/noExplicitAny: raw TOML documents are mutated freely to break them
type Raw = Record<string, any>;

/** The smallest valid document: one workspace, one server. */
function minimal(): Raw {
  return {
    workspace: [{ name: "app", root: rootA, servers: ["ra"] }],
    server: [
      {
        name: "ra",
        command: "/opt/ra/bin/rust-analyzer",
        version: "rust-analyzer 1.96.0",
        languages: ["rust"],
        roles: ["semantics"],
      },
    ],
  };
}

function rejection(mutate: (raw: Raw) => void): BridgeError {
  const raw = minimal();
  mutate(raw);
  try {
    validateConfig(raw, "test.toml");
  } catch (err) {
    if (err instanceof BridgeError) return err;
    throw err;
  }
  throw new Error("expected ConfigInvalid, but the config was accepted");
}

const srv = (raw: Raw) => raw.server[0];
const ws = (raw: Raw) => raw.workspace[0];

type Rejection = [messagePrefix: string, mutate: (raw: Raw) => void];
/** [the message's start after the section's key path, the keys set in that section] */
type Patch = [messageAfterPath: string, keys: Raw];

// [bridge]
const BRIDGE: Patch[] = [
  ["max_session: unknown key", { max_session: 2 }],
  ["max_sessions: expected an integer in 1..4, got 9", { max_sessions: 9 }],
  ["max_sessions: expected an integer in 1..4, got 0", { max_sessions: 0 }],
  ["max_sessions: expected an integer", { max_sessions: "4" }],
  ["request_timeout_ms: expected an integer", { request_timeout_ms: 2.5 }],
  ["ready_timeout_ms: expected an integer in 1..", { ready_timeout_ms: 0 }],
  ["shutdown_grace_ms: expected an integer in 1..2147483647", { shutdown_grace_ms: 2 ** 31 }],
  ["max_result_bytes: expected an integer >= 1024", { max_result_bytes: -1 }],
  ["max_file_bytes: expected an integer >= 1", { max_file_bytes: 0 }],
  ["max_open_documents: expected an integer", { max_open_documents: 0 }],
  [
    'column_unit: expected one of "code-point", "utf-16", "utf-8", got "utf-32"',
    { column_unit: "utf-32" },
  ],
  ['mutation: expected one of "off", "gated", got "on"', { mutation: "on" }],
  [
    "mutation_allowlist: expected no mutation_allowlist",
    { mutation: "off", mutation_allowlist: ["ci"] },
  ],
  ["mutation_allowlist: expected no mutation_allowlist", { mutation_allowlist: [] }],
  ["mutation_allowlist: expected a non-empty list", { mutation: "gated" }],
  ["mutation_allowlist: expected a non-empty list", { mutation: "gated", mutation_allowlist: [] }],
  [
    "mutation_allowlist[1]: expected a non-empty client name",
    { mutation: "gated", mutation_allowlist: ["ci", " "] },
  ],
  [
    "mutation_allowlist[1]: expected unique client names",
    { mutation: "gated", mutation_allowlist: ["ci", "ci"] },
  ],
  ['setpriv: expected an absolute path, got "setpriv"', { setpriv: "setpriv" }],
  ["max_query_length: expected an integer in 1..4096, got 5000", { max_query_length: 5000 }],
  ["max_limit: expected an integer in 1..10000, got 0", { max_limit: 0 }],
  [
    'log.level: expected one of "error", "warn", "info", "debug", got "trace"',
    { log: { level: "trace" } },
  ],
  ['log.file: expected an absolute path, got "bridge.log"', { log: { file: "bridge.log" } }],
  ["log.rotate: unknown key", { log: { rotate: true } }],
  ["log.max_files: expected an integer", { log: { max_files: 0 } }],
  ["log.max_bytes: expected an integer >= 4096", { log: { max_bytes: 10 } }],
];

// [[workspace]] "app"
const WORKSPACE: Patch[] = [
  ["path: unknown key", { path: "/x" }],
  ['root: expected an absolute path, got "src/app"', { root: "src/app" }],
  ["root: expected an existing directory", { root: join(tmp, "nope") }],
  ["root: expected an existing directory (it is not a directory)", { root: aFile }],
  ["servers: expected a non-empty list", { servers: [] }],
  ['servers[1]: names unknown server "foo"', { servers: ["ra", "foo"] }],
  ["servers[1]: expected each server once", { servers: ["ra", "ra"] }],
  [
    'file_dirs."compile_commands.json": expected a file that a server of this workspace requires',
    { file_dirs: { "compile_commands.json": "build" } },
  ],
];

// [[server]] "ra"
const SERVER: Patch[] = [
  ["cmd: unknown key", { cmd: "/x" }],
  ['command: expected an absolute path, got "ra"', { command: "ra" }],
  ["version: expected a non-empty string", { version: "" }],
  ["version: expected the version string without trailing white space", { version: "ra 1.0\n" }],
  ["version_command: expected a non-empty array", { version_command: [] }],
  [
    'version_command[0]: expected an absolute path, got "pyright"',
    { version_command: ["pyright", "--version"] },
  ],
  [
    "version_args: expected version_args or version_command, not both",
    { version_command: ["/bin/v"], version_args: ["-V"] },
  ],
  ["languages: expected a non-empty list", { languages: [] }],
  ["languages[1]: expected each languageId once", { languages: ["rust", "rust"] }],
  [
    'extensions.".rs": expected the extension without its leading dot',
    { extensions: { ".rs": "rust" } },
  ],
  [
    'extensions.rs: expected one of this server\'s languages (rust), got "ruby"',
    { extensions: { rs: "ruby" } },
  ],
  [
    'filenames."ci/Dockerfile": expected a file name or a name pattern with * (no white space or slashes)',
    { filenames: { "ci/Dockerfile": "rust" } },
  ],
  [
    'filenames."Cargo.toml": expected one of this server\'s languages (rust), got "toml"',
    { filenames: { "Cargo.toml": "toml" } },
  ],
  [
    'shebangs."/bin/sh": expected an interpreter name such as bash or python3',
    { shebangs: { "/bin/sh": "rust" } },
  ],
  ["roles: expected a non-empty list", { roles: [] }],
  ['roles[0]: expected one of "semantics", "diagnostics"', { roles: ["formatting"] }],
  ["roles[1]: expected each role once", { roles: ["semantics", "semantics"] }],
  ["env.RA_LOG: expected a string, got 1", { env: { RA_LOG: 1 } }],
  ["env.RA-LOG: expected an environment variable name", { env: { "RA-LOG": "x" } }],
  ["env.BUN_OPTIONS: expected a name other than BUN_BE_BUN", { env: { BUN_OPTIONS: "--x" } }],
  [
    "env_passthrough[0]: expected a name other than BUN_BE_BUN",
    { env_passthrough: ["BUN_BE_BUN"] },
  ],
  [
    "env_passthrough[1]: expected a non-secret variable name; it matches *TOKEN*",
    { env_passthrough: ["HOME", "GITHUB_TOKEN"] },
  ],
  // a secret-looking name alone, in any case
  ...[
    ["AWS_SECRET_ACCESS", "*SECRET*"],
    ["PGPASSWORD", "*PASSWORD*"],
    ["OPENAI_API_KEY", "*_KEY"],
    ["GOOGLE_APPLICATION_CREDENTIALS", "*CREDENTIAL*"],
    ["my_token", "*TOKEN*"],
  ].map(
    ([name, pattern]): Patch => [
      `env_passthrough[0]: expected a non-secret variable name; it matches ${pattern}`,
      { env_passthrough: [name] },
    ],
  ),
  [
    "env_passthrough[1]: expected each name once",
    { env_passthrough: ["CARGO_HOME", "CARGO_HOME"] },
  ],
  ["initialization_options: expected a table", { initialization_options: "x" }],
  ["settings: expected a table", { settings: [1] }],
  ["ready.quiet: unknown key", { ready: { quiet: true } }],
  [
    'ready.quiescent: expected a boolean (true or false), got "yes"',
    { ready: { quiescent: "yes" } },
  ],
  [
    'ready.progress[1]: expected a valid regular expression, got "(unclosed"',
    { ready: { progress: ["ok", "(unclosed"] } },
  ],
  [
    "ready.progress_required: expected progress_required = true only with a non-empty ready.progress",
    { ready: { progress_required: true } },
  ],
  [
    "ready.project_files: expected project_files only with ready.warmup_open",
    { ready: { project_files: ["tsconfig.json"] } },
  ],
  [
    "ready.project_files[0]: expected a file name without a directory",
    { ready: { warmup_open: "**/*.ts", project_files: ["src/tsconfig.json"] } },
  ],
  [
    "ready.warmup_publish: expected warmup_publish = true only with ready.warmup_open",
    { ready: { warmup_publish: true } },
  ],
  ["ready.log_message: expected a valid regular expression", { ready: { log_message: "[" } }],
  ["ready.log_message: expected a non-empty string", { ready: { log_message: "" } }],
  ["ready.warmup_open: expected a relative path", { ready: { warmup_open: "/src/*.rs" } }],
  ["ready.warmup_open: expected a relative path", { ready: { warmup_open: "../**/*.rs" } }],
  ["ready.probe.method: missing required key", { ready: { probe: { params: {} } } }],
  ["ready.probe.retry: unknown key", { ready: { probe: { method: "x", retry: 3 } } }],
  [
    'diagnostics_settle: expected one of "version", "publish", "quiescent", "pull", "progress", "tsserver", got "eventually"',
    { diagnostics_settle: "eventually" },
  ],
  [
    'position_encoding: expected one of "utf-8", "utf-16", "utf-32", got "utf-7"',
    { position_encoding: "utf-7" },
  ],
  [
    'line_terminators[1]: expected one of "cr", "lf", "crlf", "u2028", "u2029", "nel", "vt", "ff", "fs", "gs", "rs", got "nl"',
    { line_terminators: ["lf", "nl"] },
  ],
  ['line_terminators: expected a list that holds "lf", got ["cr"]', { line_terminators: ["cr"] }],
  [
    'answer_line_terminators: expected a list that holds "lf", got ["cr","crlf"]',
    { answer_line_terminators: ["cr", "crlf"] },
  ],
  [
    'line_terminators: expected each name once, got ["lf","cr","lf"]',
    { line_terminators: ["lf", "cr", "lf"] },
  ],
  [
    'diagnostics_settle: expected "quiescent" only with ready.quiescent = true',
    { diagnostics_settle: "quiescent" },
  ],
  [
    "diagnostics_runs.progress: expected at least one $/progress pattern, got []",
    { diagnostics_runs: { progress: [] } },
  ],
  [
    "diagnostics_runs.republish: unknown key; allowed keys: progress, start, barrier",
    { diagnostics_runs: { progress: ["x"], republish: true } },
  ],
  ["requires: expected an array", { requires: { file: "x" } }],
  ["requires[0].file: expected a relative path", { requires: [{ file: "/etc/x.json" }] }],
  ["requires[0].file: expected a relative path", { requires: [{ file: "../x.json" }] }],
  [
    'requires[0].format: expected one of "compile_commands", "any", got "json"',
    { requires: [{ file: "x", format: "json" }] },
  ],
  [
    'requires[0].dir_arg: expected a string containing "{dir}", got "--dir"',
    { requires: [{ file: "x", dir_arg: "--dir" }] },
  ],
  [
    "requires[1].file: expected each required file once",
    { requires: [{ file: "x" }, { file: "x" }] },
  ],
  ["requires[0].optional: unknown key", { requires: [{ file: "x", optional: true }] }],
];

const OTHER_REJECTIONS: Rejection[] = [
  ["extra: unknown key", (r) => (r.extra = 1)],
  ["workspace: missing required key", (r) => delete r.workspace],
  ["workspace: expected at least one", (r) => (r.workspace = [])],
  ["workspace: expected an array of tables", (r) => (r.workspace = r.workspace[0])],
  ["server: missing required key", (r) => delete r.server],
  ["server: expected at least one", (r) => (r.server = [])],
  [
    'workspace[0].name: expected a name of [A-Za-z0-9._-]+, got "my app"',
    (r) => (ws(r).name = "my app"),
  ],
  ["workspace[0].name: expected a name", (r) => (ws(r).name = "")],
  [
    "workspace[1].name: expected a unique workspace name",
    (r) => r.workspace.push({ name: "app", root: rootB, servers: ["ra"] }),
  ],
  ...["../build", "/build"].map(
    (dir): Rejection => [
      'workspace.app.file_dirs."compile_commands.json": expected a relative path',
      (r) => {
        srv(r).requires = [{ file: "compile_commands.json" }];
        ws(r).file_dirs = { "compile_commands.json": dir };
      },
    ],
  ),
  ["server[0].name: expected a name", (r) => (srv(r).name = "a/b")],
  ["server[1].name: expected a unique server name", (r) => r.server.push({ ...srv(r) })],
  // an unnamed entry is named by its index
  [
    "server[0].name: expected a string",
    (r) => {
      srv(r).name = 7;
      srv(r).command = "ra";
    },
  ],
  ["server.ra.command: missing required key", (r) => delete srv(r).command],
  ["server.ra.version: missing required key", (r) => delete srv(r).version],
];

const patched = (path: string, rows: Patch[], set: (r: Raw, keys: Raw) => void) =>
  rows.map(
    ([message, keys]): Rejection => [`${path}${message}`, (r) => set(r, structuredClone(keys))],
  );

const REJECTIONS: Rejection[] = [
  ...OTHER_REJECTIONS,
  ...patched("bridge.", BRIDGE, (r, keys) => (r.bridge = keys)),
  ...patched("workspace.app.", WORKSPACE, (r, keys) => Object.assign(ws(r), keys)),
  ...patched("server.ra.", SERVER, (r, keys) => Object.assign(srv(r), keys)),
];

describe("validateConfig rejections (SPEC §3)", () => {
  test.each(REJECTIONS)("%s", (messagePrefix, mutate) => {
    const err = rejection(mutate);
    expect(err.code).toBe("ConfigInvalid");
    expect(err.message).toStartWith(messagePrefix);
    // details.path is the key path the message starts with
    expect(typeof err.details?.path).toBe("string");
    expect(err.message).toStartWith(`${err.details?.path}:`);
    expect(err.hint).toContain("test.toml");
  });

  test("several problems: the first is named, the rest are listed in details", () => {
    const err = rejection((r) => {
      r.bridge = { max_sessions: 9 };
      srv(r).command = "ra";
    });
    expect(err.message).toStartWith("bridge.max_sessions: expected an integer in 1..4, got 9");
    expect(err.message).toContain("(and 1 more problem(s))");
    expect(err.details?.problems).toEqual([
      "bridge.max_sessions: expected an integer in 1..4, got 9",
      'server.ra.command: expected an absolute path, got "ra"',
    ]);
  });

  test("a server name containing dots is quoted in key paths", () => {
    const err = rejection((r) => {
      srv(r).name = "clangd.14";
      ws(r).servers = ["clangd.14"];
      srv(r).command = "clangd";
    });
    expect(err.message).toStartWith('server."clangd.14".command: expected an absolute path');
  });
});

describe("validateConfig accepts", () => {
  test("secret-looking names in explicit env (the operator wrote the value)", () => {
    const raw = minimal();
    srv(raw).env = { API_TOKEN: "t" };
    expect(validateConfig(raw, "t").servers[0]?.env).toEqual({ API_TOKEN: "t" });
  });

  test("a server no workspace uses", () => {
    const raw = minimal();
    raw.server.push({ ...srv(raw), name: "spare" });
    expect(validateConfig(raw, "t").servers.map((s) => s.name)).toEqual(["ra", "spare"]);
  });

  test("a command path that does not exist (a start-time ServerNotFound, not a config error)", () => {
    const raw = minimal();
    srv(raw).command = join(tmp, "no-such-binary");
    expect(validateConfig(raw, "t").servers[0]?.command).toBe(join(tmp, "no-such-binary"));
  });

  test("gated mutation with a non-empty allowlist", () => {
    const raw = minimal();
    raw.bridge = { mutation: "gated", mutation_allowlist: ["ci-gate", "agent"] };
    const c = validateConfig(raw, "t");
    expect(c.bridge.mutation).toBe("gated");
    expect(c.bridge.mutation_allowlist).toEqual(["ci-gate", "agent"]);
  });

  test("the workspace root is normalized", () => {
    const raw = minimal();
    ws(raw).root = `${rootA}/./`;
    expect(validateConfig(raw, "t").workspaces[0]?.root).toBe(rootA);
  });
});

describe("defaults (SPEC §3)", () => {
  const config = validateConfig(minimal(), "defaults.toml");

  test("bridge", () => {
    expect(config.bridge).toEqual({
      max_sessions: 4,
      shutdown_grace_ms: 2000,
      request_timeout_ms: 30000,
      ready_timeout_ms: 120000,
      max_result_bytes: 262144,
      max_file_bytes: 8388608,
      max_open_documents: 64,
      column_unit: "code-point",
      mutation: "off",
      mutation_allowlist: [],
      max_query_length: 128,
      max_limit: 200,
      max_watches: 8192,
      max_server_message_bytes: 33554432,
      state_dir: null,
      shared: true,
      shared_idle_seconds: 300,
      log: { level: "info", file: null, max_bytes: 5242880, max_files: 3 },
    });
  });

  test("workspace", () => {
    expect(config.workspaces).toEqual([
      { name: "app", root: rootA, servers: ["ra"], file_dirs: {}, incidental: [] },
    ]);
  });

  test("server", () => {
    expect(config.servers).toEqual([
      {
        name: "ra",
        command: "/opt/ra/bin/rust-analyzer",
        args: [],
        version: "rust-analyzer 1.96.0",
        version_args: ["--version"],
        version_command: null,
        languages: ["rust"],
        extensions: {},
        filenames: {},
        shebangs: {},
        roles: ["semantics"],
        env: {},
        env_passthrough: [],
        initialization_options: {},
        settings: {},
        ready: {
          quiescent: false,
          progress: [],
          progress_required: false,
          warmup_open: null,
          project_files: [],
          warmup_publish: false,
          log_message: null,
          probe: null,
        },
        diagnostics_settle: "version",
        diagnostics_runs: null,
        position_encoding: null,
        line_terminators: ["cr", "lf", "crlf"],
        answer_line_terminators: null,
        edit_lines: { rename: "read", rename_others: "read", code_action: "answer" },
        open_changed_files: false,
        workspace_symbols: true,
        data_files: false,
        restart_on: [],
        follows: [],
        own_files: [],
        reads: ["**"],
        unproven: "restart",
        reload_on: [],
        package_manifest: null,
        requires: [],
        program: null,
      },
    ]);
  });

  test("probe params default to an empty table; requires fields default", () => {
    const raw = minimal();
    srv(raw).ready = { probe: { method: "workspace/symbol" } };
    srv(raw).requires = [{ file: "compile_commands.json" }];
    const s = validateConfig(raw, "t").servers[0];
    expect(s?.ready.probe).toEqual({ method: "workspace/symbol", params: {} });
    expect(s?.requires[0]?.format).toBe("any");
    expect(s?.requires[0]?.dir_arg).toBeNull();
    expect(s?.requires[0]?.hint).toContain("compile_commands.json");
  });

  test("source is recorded", () => {
    expect(config.source).toBe("defaults.toml");
  });

  test("defaults are fresh per parse (no shared arrays)", () => {
    const a = validateConfig(minimal(), "a");
    const b = validateConfig(minimal(), "b");
    a.servers[0]?.args.push("--mutated");
    expect(b.servers[0]?.args).toEqual([]);
  });
});

describe("diagnostics_runs (SPEC §6)", () => {
  test('diagnostics_settle = "progress" needs diagnostics_runs', () => {
    const raw = minimal();
    srv(raw).diagnostics_settle = "progress";
    expect(() => validateConfig(raw, "t")).toThrow(/server\.ra\.diagnostics_runs/);
    srv(raw).diagnostics_runs = { progress: ["^checking$"] };
    const runs = validateConfig(raw, "t").servers[0]?.diagnostics_runs;
    expect(runs).toEqual({ progress: ["^checking$"], start: null, barrier: null });
    srv(raw).diagnostics_runs = { progress: ["("] };
    expect(() => validateConfig(raw, "t")).toThrow(/diagnostics_runs\.progress\[0\]/);
  });

  test("start and barrier default their params; republish is the barrier's", () => {
    const raw = minimal();
    srv(raw).diagnostics_runs = {
      progress: ["flycheck"],
      start: { method: "x/run" },
      barrier: { method: "x/barrier", republish: true },
    };
    expect(validateConfig(raw, "t").servers[0]?.diagnostics_runs).toEqual({
      progress: ["flycheck"],
      start: { method: "x/run", params: {} },
      barrier: { method: "x/barrier", params: {}, republish: true },
    });
  });

  // the flat keys of before: refused, the message and the hint naming where each went
  test.each([
    ["diagnostics_progress", ["flycheck"], "diagnostics_runs.progress"],
    ["diagnostics_run", { method: "x/run" }, "diagnostics_runs.start"],
    ["diagnostics_barrier", { method: "x/barrier" }, "diagnostics_runs.barrier"],
    ["diagnostics_republish", true, "diagnostics_runs.barrier.republish"],
  ])("the old key %s is refused, naming its new place", (key, value, to) => {
    const err = rejection((r) => (srv(r)[key] = value));
    expect(err.code).toBe("ConfigInvalid");
    expect(err.message).toBe(`server.ra.${key}: expected ${to} in its place (SPEC §3)`);
    expect(err.hint).toStartWith(`write ${key} as ${to} in test.toml (SPEC §3)`);
  });

  test("several old keys and an unknown one: each named", () => {
    const err = rejection((r) => {
      srv(r).diagnostics_progress = ["x"];
      srv(r).diagnostics_run = { method: "x/run" };
      srv(r).nonsense = 1;
    });
    expect(err.details?.problems).toEqual([
      "server.ra.diagnostics_progress: expected diagnostics_runs.progress in its place (SPEC §3)",
      "server.ra.diagnostics_run: expected diagnostics_runs.start in its place (SPEC §3)",
      expect.stringMatching(/^server\.ra\.nonsense: unknown key; allowed keys: /),
    ]);
  });
});
