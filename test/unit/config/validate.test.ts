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

// [case, mutation, message prefix naming the key path]
const REJECTIONS: [string, (raw: Raw) => void, string][] = [
  // top level
  ["unknown top-level key", (r) => (r.extra = 1), "extra: unknown key"],
  ["workspace missing", (r) => delete r.workspace, "workspace: missing required key"],
  ["workspace empty list", (r) => (r.workspace = []), "workspace: expected at least one"],
  [
    "[workspace] as a single table",
    (r) => (r.workspace = r.workspace[0]),
    "workspace: expected an array of tables",
  ],
  ["server missing", (r) => delete r.server, "server: missing required key"],
  ["server empty list", (r) => (r.server = []), "server: expected at least one"],
  // [bridge]
  ["unknown bridge key", (r) => (r.bridge = { max_session: 2 }), "bridge.max_session: unknown key"],
  [
    "max_sessions above 4",
    (r) => (r.bridge = { max_sessions: 9 }),
    "bridge.max_sessions: expected an integer in 1..4, got 9",
  ],
  [
    "max_sessions 0",
    (r) => (r.bridge = { max_sessions: 0 }),
    "bridge.max_sessions: expected an integer in 1..4, got 0",
  ],
  [
    "max_sessions as string",
    (r) => (r.bridge = { max_sessions: "4" }),
    "bridge.max_sessions: expected an integer",
  ],
  [
    "fractional timeout",
    (r) => (r.bridge = { request_timeout_ms: 2.5 }),
    "bridge.request_timeout_ms: expected an integer",
  ],
  [
    "zero timeout",
    (r) => (r.bridge = { ready_timeout_ms: 0 }),
    "bridge.ready_timeout_ms: expected an integer in 1..",
  ],
  [
    "timeout beyond timer range",
    (r) => (r.bridge = { shutdown_grace_ms: 2 ** 31 }),
    "bridge.shutdown_grace_ms: expected an integer in 1..2147483647",
  ],
  [
    "negative max_result_bytes",
    (r) => (r.bridge = { max_result_bytes: -1 }),
    "bridge.max_result_bytes: expected an integer >= 1024",
  ],
  [
    "zero max_file_bytes",
    (r) => (r.bridge = { max_file_bytes: 0 }),
    "bridge.max_file_bytes: expected an integer >= 1",
  ],
  [
    "zero max_open_documents",
    (r) => (r.bridge = { max_open_documents: 0 }),
    "bridge.max_open_documents: expected an integer",
  ],
  [
    "unknown column_unit",
    (r) => (r.bridge = { column_unit: "utf-32" }),
    'bridge.column_unit: expected one of "code-point", "utf-16", "utf-8", got "utf-32"',
  ],
  [
    "unknown mutation mode",
    (r) => (r.bridge = { mutation: "on" }),
    'bridge.mutation: expected one of "off", "gated", got "on"',
  ],
  [
    "off with an allowlist",
    (r) => (r.bridge = { mutation: "off", mutation_allowlist: ["ci"] }),
    "bridge.mutation_allowlist: expected no mutation_allowlist",
  ],
  [
    "off with an empty allowlist",
    (r) => (r.bridge = { mutation_allowlist: [] }),
    "bridge.mutation_allowlist: expected no mutation_allowlist",
  ],
  [
    "gated without allowlist",
    (r) => (r.bridge = { mutation: "gated" }),
    "bridge.mutation_allowlist: expected a non-empty list",
  ],
  [
    "gated with empty allowlist",
    (r) => (r.bridge = { mutation: "gated", mutation_allowlist: [] }),
    "bridge.mutation_allowlist: expected a non-empty list",
  ],
  [
    "gated with an empty name",
    (r) => (r.bridge = { mutation: "gated", mutation_allowlist: ["ci", " "] }),
    "bridge.mutation_allowlist[1]: expected a non-empty client name",
  ],
  [
    "gated with duplicate names",
    (r) => (r.bridge = { mutation: "gated", mutation_allowlist: ["ci", "ci"] }),
    "bridge.mutation_allowlist[1]: expected unique client names",
  ],
  [
    "relative setpriv",
    (r) => (r.bridge = { setpriv: "setpriv" }),
    'bridge.setpriv: expected an absolute path, got "setpriv"',
  ],
  [
    "max_query_length too large",
    (r) => (r.bridge = { max_query_length: 5000 }),
    "bridge.max_query_length: expected an integer in 1..4096, got 5000",
  ],
  [
    "max_limit 0",
    (r) => (r.bridge = { max_limit: 0 }),
    "bridge.max_limit: expected an integer in 1..10000, got 0",
  ],
  [
    "unknown log level",
    (r) => (r.bridge = { log: { level: "trace" } }),
    'bridge.log.level: expected one of "error", "warn", "info", "debug", got "trace"',
  ],
  [
    "relative log file",
    (r) => (r.bridge = { log: { file: "bridge.log" } }),
    'bridge.log.file: expected an absolute path, got "bridge.log"',
  ],
  [
    "unknown log key",
    (r) => (r.bridge = { log: { rotate: true } }),
    "bridge.log.rotate: unknown key",
  ],
  [
    "zero log max_files",
    (r) => (r.bridge = { log: { max_files: 0 } }),
    "bridge.log.max_files: expected an integer",
  ],
  [
    "tiny log max_bytes",
    (r) => (r.bridge = { log: { max_bytes: 10 } }),
    "bridge.log.max_bytes: expected an integer >= 4096",
  ],
  // [[workspace]]
  ["unknown workspace key", (r) => (ws(r).path = "/x"), "workspace.app.path: unknown key"],
  [
    "workspace name with a space",
    (r) => (ws(r).name = "my app"),
    'workspace[0].name: expected a name of [A-Za-z0-9._-]+, got "my app"',
  ],
  ["workspace name empty", (r) => (ws(r).name = ""), "workspace[0].name: expected a name"],
  [
    "duplicate workspace name",
    (r) => r.workspace.push({ name: "app", root: rootB, servers: ["ra"] }),
    "workspace[1].name: expected a unique workspace name",
  ],
  [
    "relative workspace root",
    (r) => (ws(r).root = "src/app"),
    'workspace.app.root: expected an absolute path, got "src/app"',
  ],
  [
    "missing workspace root dir",
    (r) => (ws(r).root = join(tmp, "nope")),
    "workspace.app.root: expected an existing directory",
  ],
  [
    "workspace root is a file",
    (r) => (ws(r).root = aFile),
    "workspace.app.root: expected an existing directory (it is not a directory)",
  ],
  [
    "workspace without servers",
    (r) => (ws(r).servers = []),
    "workspace.app.servers: expected a non-empty list",
  ],
  [
    "workspace naming an unknown server",
    (r) => (ws(r).servers = ["ra", "foo"]),
    'workspace.app.servers[1]: names unknown server "foo"',
  ],
  [
    "workspace listing a server twice",
    (r) => (ws(r).servers = ["ra", "ra"]),
    "workspace.app.servers[1]: expected each server once",
  ],
  [
    "file_dirs escaping the root",
    (r) => {
      srv(r).requires = [{ file: "compile_commands.json" }];
      ws(r).file_dirs = { "compile_commands.json": "../build" };
    },
    'workspace.app.file_dirs."compile_commands.json": expected a relative path',
  ],
  [
    "absolute file_dirs",
    (r) => {
      srv(r).requires = [{ file: "compile_commands.json" }];
      ws(r).file_dirs = { "compile_commands.json": "/build" };
    },
    'workspace.app.file_dirs."compile_commands.json": expected a relative path',
  ],
  [
    "file_dirs for a file nobody requires",
    (r) => (ws(r).file_dirs = { "compile_commands.json": "build" }),
    'workspace.app.file_dirs."compile_commands.json": expected a file that a server of this workspace requires',
  ],
  // [[server]]
  ["unknown server key", (r) => (srv(r).cmd = "/x"), "server.ra.cmd: unknown key"],
  ["server name with a slash", (r) => (srv(r).name = "a/b"), "server[0].name: expected a name"],
  [
    "duplicate server name",
    (r) => r.server.push({ ...srv(r) }),
    "server[1].name: expected a unique server name",
  ],
  [
    "relative command",
    (r) => (srv(r).command = "ra"),
    'server.ra.command: expected an absolute path, got "ra"',
  ],
  [
    "relative command, unnamed entry uses the index",
    (r) => {
      srv(r).name = 7;
      srv(r).command = "ra";
    },
    "server[0].name: expected a string",
  ],
  ["missing command", (r) => delete srv(r).command, "server.ra.command: missing required key"],
  ["missing version", (r) => delete srv(r).version, "server.ra.version: missing required key"],
  ["empty version", (r) => (srv(r).version = ""), "server.ra.version: expected a non-empty string"],
  [
    "version with trailing white space",
    (r) => (srv(r).version = "ra 1.0\n"),
    "server.ra.version: expected the version string without trailing white space",
  ],
  [
    "empty version_command",
    (r) => (srv(r).version_command = []),
    "server.ra.version_command: expected a non-empty array",
  ],
  [
    "relative version_command",
    (r) => (srv(r).version_command = ["pyright", "--version"]),
    'server.ra.version_command[0]: expected an absolute path, got "pyright"',
  ],
  [
    "version_command and version_args together",
    (r) => {
      srv(r).version_command = ["/bin/v"];
      srv(r).version_args = ["-V"];
    },
    "server.ra.version_args: expected version_args or version_command, not both",
  ],
  [
    "no languages",
    (r) => (srv(r).languages = []),
    "server.ra.languages: expected a non-empty list",
  ],
  [
    "duplicate language",
    (r) => (srv(r).languages = ["rust", "rust"]),
    "server.ra.languages[1]: expected each languageId once",
  ],
  [
    "extension with a leading dot",
    (r) => (srv(r).extensions = { ".rs": "rust" }),
    'server.ra.extensions.".rs": expected the extension without its leading dot',
  ],
  [
    "extension mapped to an unlisted language",
    (r) => (srv(r).extensions = { rs: "ruby" }),
    'server.ra.extensions.rs: expected one of this server\'s languages (rust), got "ruby"',
  ],
  [
    "file name with a slash",
    (r) => (srv(r).filenames = { "ci/Dockerfile": "rust" }),
    'server.ra.filenames."ci/Dockerfile": expected a file name or a name pattern with * (no white space or slashes)',
  ],
  [
    "file name mapped to an unlisted language",
    (r) => (srv(r).filenames = { "Cargo.toml": "toml" }),
    'server.ra.filenames."Cargo.toml": expected one of this server\'s languages (rust), got "toml"',
  ],
  [
    "interpreter given as a path",
    (r) => (srv(r).shebangs = { "/bin/sh": "rust" }),
    'server.ra.shebangs."/bin/sh": expected an interpreter name such as bash or python3',
  ],
  ["no roles", (r) => (srv(r).roles = []), "server.ra.roles: expected a non-empty list"],
  [
    "unknown role",
    (r) => (srv(r).roles = ["formatting"]),
    'server.ra.roles[0]: expected one of "semantics", "diagnostics"',
  ],
  [
    "duplicate role",
    (r) => (srv(r).roles = ["semantics", "semantics"]),
    "server.ra.roles[1]: expected each role once",
  ],
  [
    "non-string env value",
    (r) => (srv(r).env = { RA_LOG: 1 }),
    "server.ra.env.RA_LOG: expected a string, got 1",
  ],
  [
    "invalid env name",
    (r) => (srv(r).env = { "RA-LOG": "x" }),
    "server.ra.env.RA-LOG: expected an environment variable name",
  ],
  [
    "BUN_OPTIONS in env",
    (r) => (srv(r).env = { BUN_OPTIONS: "--x" }),
    "server.ra.env.BUN_OPTIONS: expected a name other than BUN_BE_BUN",
  ],
  [
    "BUN_BE_BUN in env_passthrough",
    (r) => (srv(r).env_passthrough = ["BUN_BE_BUN"]),
    "server.ra.env_passthrough[0]: expected a name other than BUN_BE_BUN",
  ],
  [
    "passthrough *TOKEN*",
    (r) => (srv(r).env_passthrough = ["HOME", "GITHUB_TOKEN"]),
    "server.ra.env_passthrough[1]: expected a non-secret variable name; it matches *TOKEN*",
  ],
  [
    "passthrough *SECRET*",
    (r) => (srv(r).env_passthrough = ["AWS_SECRET_ACCESS"]),
    "server.ra.env_passthrough[0]: expected a non-secret variable name; it matches *SECRET*",
  ],
  [
    "passthrough *PASSWORD*",
    (r) => (srv(r).env_passthrough = ["PGPASSWORD"]),
    "server.ra.env_passthrough[0]: expected a non-secret variable name; it matches *PASSWORD*",
  ],
  [
    "passthrough *_KEY",
    (r) => (srv(r).env_passthrough = ["OPENAI_API_KEY"]),
    "server.ra.env_passthrough[0]: expected a non-secret variable name; it matches *_KEY",
  ],
  [
    "passthrough *CREDENTIAL*",
    (r) => (srv(r).env_passthrough = ["GOOGLE_APPLICATION_CREDENTIALS"]),
    "server.ra.env_passthrough[0]: expected a non-secret variable name; it matches *CREDENTIAL*",
  ],
  [
    "passthrough secret in lower case",
    (r) => (srv(r).env_passthrough = ["my_token"]),
    "server.ra.env_passthrough[0]: expected a non-secret variable name; it matches *TOKEN*",
  ],
  [
    "duplicate passthrough name",
    (r) => (srv(r).env_passthrough = ["CARGO_HOME", "CARGO_HOME"]),
    "server.ra.env_passthrough[1]: expected each name once",
  ],
  [
    "initialization_options not a table",
    (r) => (srv(r).initialization_options = "x"),
    "server.ra.initialization_options: expected a table",
  ],
  ["settings not a table", (r) => (srv(r).settings = [1]), "server.ra.settings: expected a table"],
  [
    "unknown ready key",
    (r) => (srv(r).ready = { quiet: true }),
    "server.ra.ready.quiet: unknown key",
  ],
  [
    "ready.quiescent not a boolean",
    (r) => (srv(r).ready = { quiescent: "yes" }),
    'server.ra.ready.quiescent: expected a boolean (true or false), got "yes"',
  ],
  [
    "invalid progress regex",
    (r) => (srv(r).ready = { progress: ["ok", "(unclosed"] }),
    'server.ra.ready.progress[1]: expected a valid regular expression, got "(unclosed"',
  ],
  [
    "progress_required without progress",
    (r) => (srv(r).ready = { progress_required: true }),
    "server.ra.ready.progress_required: expected progress_required = true only with a non-empty ready.progress",
  ],
  [
    "project_files without warmup_open",
    (r) => (srv(r).ready = { project_files: ["tsconfig.json"] }),
    "server.ra.ready.project_files: expected project_files only with ready.warmup_open",
  ],
  [
    "a project file with a directory",
    (r) => (srv(r).ready = { warmup_open: "**/*.ts", project_files: ["src/tsconfig.json"] }),
    "server.ra.ready.project_files[0]: expected a file name without a directory",
  ],
  [
    "warmup_publish without warmup_open",
    (r) => (srv(r).ready = { warmup_publish: true }),
    "server.ra.ready.warmup_publish: expected warmup_publish = true only with ready.warmup_open",
  ],
  [
    "invalid log_message regex",
    (r) => (srv(r).ready = { log_message: "[" }),
    "server.ra.ready.log_message: expected a valid regular expression",
  ],
  [
    "empty log_message",
    (r) => (srv(r).ready = { log_message: "" }),
    "server.ra.ready.log_message: expected a non-empty string",
  ],
  [
    "absolute warmup_open",
    (r) => (srv(r).ready = { warmup_open: "/src/*.rs" }),
    "server.ra.ready.warmup_open: expected a relative path",
  ],
  [
    "warmup_open escaping",
    (r) => (srv(r).ready = { warmup_open: "../**/*.rs" }),
    "server.ra.ready.warmup_open: expected a relative path",
  ],
  [
    "probe without method",
    (r) => (srv(r).ready = { probe: { params: {} } }),
    "server.ra.ready.probe.method: missing required key",
  ],
  [
    "probe with unknown key",
    (r) => (srv(r).ready = { probe: { method: "x", retry: 3 } }),
    "server.ra.ready.probe.retry: unknown key",
  ],
  [
    "unknown diagnostics_settle",
    (r) => (srv(r).diagnostics_settle = "eventually"),
    'server.ra.diagnostics_settle: expected one of "version", "publish", "quiescent", "pull", "progress", "tsserver", got "eventually"',
  ],
  [
    "unknown position_encoding",
    (r) => (srv(r).position_encoding = "utf-7"),
    'server.ra.position_encoding: expected one of "utf-8", "utf-16", "utf-32", got "utf-7"',
  ],
  [
    "an unknown line terminator",
    (r) => (srv(r).line_terminators = ["lf", "nl"]),
    'server.ra.line_terminators[1]: expected one of "cr", "lf", "crlf", "u2028", "u2029", "nel", "vt", "ff", "fs", "gs", "rs", got "nl"',
  ],
  [
    "line terminators without LF",
    (r) => (srv(r).line_terminators = ["cr"]),
    'server.ra.line_terminators: expected a list that holds "lf", got ["cr"]',
  ],
  [
    "answer line terminators without LF",
    (r) => (srv(r).answer_line_terminators = ["cr", "crlf"]),
    'server.ra.answer_line_terminators: expected a list that holds "lf", got ["cr","crlf"]',
  ],
  [
    "a line terminator twice",
    (r) => (srv(r).line_terminators = ["lf", "cr", "lf"]),
    'server.ra.line_terminators: expected each name once, got ["lf","cr","lf"]',
  ],
  [
    "settle quiescent without ready.quiescent",
    (r) => (srv(r).diagnostics_settle = "quiescent"),
    'server.ra.diagnostics_settle: expected "quiescent" only with ready.quiescent = true',
  ],
  [
    "runs without a progress pattern",
    (r) => (srv(r).diagnostics_runs = { progress: [] }),
    "server.ra.diagnostics_runs.progress: expected at least one $/progress pattern, got []",
  ],
  [
    "republish outside the barrier that awaits it",
    (r) => (srv(r).diagnostics_runs = { progress: ["x"], republish: true }),
    "server.ra.diagnostics_runs.republish: unknown key; allowed keys: progress, start, barrier",
  ],
  [
    "requires as a table",
    (r) => (srv(r).requires = { file: "x" }),
    "server.ra.requires: expected an array",
  ],
  [
    "requires absolute file",
    (r) => (srv(r).requires = [{ file: "/etc/x.json" }]),
    "server.ra.requires[0].file: expected a relative path",
  ],
  [
    "requires file escaping",
    (r) => (srv(r).requires = [{ file: "../x.json" }]),
    "server.ra.requires[0].file: expected a relative path",
  ],
  [
    "requires unknown format",
    (r) => (srv(r).requires = [{ file: "x", format: "json" }]),
    'server.ra.requires[0].format: expected one of "compile_commands", "any", got "json"',
  ],
  [
    "requires dir_arg without {dir}",
    (r) => (srv(r).requires = [{ file: "x", dir_arg: "--dir" }]),
    'server.ra.requires[0].dir_arg: expected a string containing "{dir}", got "--dir"',
  ],
  [
    "requires the same file twice",
    (r) => (srv(r).requires = [{ file: "x" }, { file: "x" }]),
    "server.ra.requires[1].file: expected each required file once",
  ],
  [
    "requires unknown key",
    (r) => (srv(r).requires = [{ file: "x", optional: true }]),
    "server.ra.requires[0].optional: unknown key",
  ],
];

describe("validateConfig rejections (SPEC §3)", () => {
  test.each(REJECTIONS)("%s", (_name, mutate, messagePrefix) => {
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
