/**
 * Presets (SPEC §1, §2): the servers theodolite knows, for zero-config and `init` (declared
 * as preset-declare.ts says); each server's traps are in docs/LANGUAGE-SERVERS.md.
 */
import { LF_LINES, type Preset, preset, siblingVersion } from "./preset-declare.ts";
import {
  ALTERNATIVE_PRESETS,
  BACON_ROOT_HINT,
  baconGivesWay,
  C_FAMILY,
  C_SERVER,
  CARGO_ENV,
  COMPILE_COMMANDS_HINT,
  GO_ENV,
  GO_NEEDED,
  INLAY_HINTS,
  LUA_SERVER,
  PYRIGHT_SERVER,
  PYTHON_SERVER,
  pythonVenv,
  TYPESCRIPT_EXTENSIONS,
  TYPESCRIPT_READS,
  UNTESTED_PRESETS,
} from "./presets-more.ts";
import { TOOL_PRESETS } from "./presets-tools.ts";
import { WEB_PRESETS } from "./presets-web.ts";
import { serverTable } from "./toml.ts";

export type { Preset } from "./preset-declare.ts";

const PROVEN_FIRST: readonly Preset[] = [
  preset({
    name: "rust-analyzer",
    binaries: ["rust-analyzer"],
    description:
      "Rust semantics and diagnostics; ready when experimental/serverStatus reports quiescent " +
      'and workspace/symbol answers. Pair with bacon-ls by giving rust-analyzer roles = ["semantics"].',
    runs: ["cargo"],
    server: {
      languages: ["rust"],
      extensions: { rs: "rust" },
      roles: ["semantics", "diagnostics"],
      env_passthrough: [...CARGO_ENV],
      // quiescent alone holds before the load starts: the probe confirms it (SPEC §3.3)
      ready: {
        quiescent: true,
        probe: { method: "workspace/symbol", params: { query: "" } },
      },
      diagnostics_settle: "quiescent",
      // the bridge starts every check (docs/LANGUAGE-SERVERS.md#rust-analyzer-cancelled-checks)
      initialization_options: { checkOnSave: false },
      settings: { "rust-analyzer": { checkOnSave: false } },
      diagnostics_runs: {
        // its `cargo check` (flycheck) pushes come after quiescence: a running check is waited for
        progress: ["flycheck"],
        start: { method: "rust-analyzer/runFlycheck", params: {} },
        // its pool's publishes (docs/LANGUAGE-SERVERS.md#rust-analyzer-cancelled-checks)
        barrier: {
          method: "workspace/symbol",
          params: { query: "theodolite barrier" },
          republish: true,
        },
      },
      // it reads watched files out of order with requests: they are opened (SPEC §5.2)
      open_changed_files: true,
      // docs/LANGUAGE-SERVERS.md#rust-analyzer-manifest-changes
      restart_on: [
        "**/Cargo.toml",
        "**/Cargo.lock",
        "**/rust-analyzer.toml",
        "**/.cargo/config.toml",
        "**/.cargo/config",
        "rust-toolchain.toml",
        "rust-toolchain",
      ],
      // any file may reach it (include_str!) and a restart costs its load: marks (SPEC §5.3)
      unproven: "mark",
      // a lone CR is no line break to it (docs/LANGUAGE-SERVERS.md#rust-analyzer-lines-end-at-lf)
      line_terminators: ["lf"],
    },
  }),
  preset({
    name: "bacon-ls",
    binaries: ["bacon-ls"],
    description: "Rust diagnostics from bacon (cargo check); diagnostics role only.",
    discovery: { givesWay: baconGivesWay },
    runs: ["cargo", "bacon"],
    server: {
      languages: ["rust"],
      extensions: { rs: "rust" },
      roles: ["diagnostics"],
      env_passthrough: [...CARGO_ENV],
      // bacon-ls publishes partial snapshots while its check runs and checks on save,
      // not on open: settled once a check run has ended and none is running (measured)
      diagnostics_settle: "progress",
      diagnostics_runs: { progress: ["^checking$"] },
      // no crate at the root looks like a clean one (docs/LANGUAGE-SERVERS.md#bacon-ls)
      requires: [{ file: "Cargo.toml", hint: BACON_ROOT_HINT }],
      own_files: [".bacon-locations"], // the locations of its last check
    },
  }),
  preset({
    name: "lua-language-server",
    binaries: ["lua-language-server"],
    untested: true,
    description: "Lua (LuaLS); ready when its workspace-loading progress ends.",
    discovery: { alternatives: { ...LUA_SERVER, rank: 2 } },
    server: {
      languages: ["lua"],
      extensions: { lua: "lua" },
      roles: ["semantics", "diagnostics"],
      // not required: a tiny workspace may load before any progress is reported
      ready: { progress: ["^Loading workspace"] },
      diagnostics_settle: "publish",
    },
  }),
  preset({
    name: "emmylua_ls",
    binaries: ["emmylua_ls"],
    description:
      "Lua (EmmyLua's analyzer, crates.io emmylua_ls); ready when its 'Load workspace' " +
      "progress has ended; pull-only diagnostics. Discovery prefers it to lua-language-server.",
    discovery: { alternatives: { ...LUA_SERVER, rank: 1 } },
    server: {
      languages: ["lua"],
      extensions: { lua: "lua" },
      roles: ["semantics", "diagnostics"],
      // its log and std library stubs (definitions into std) are under $XDG_DATA_HOME
      env_passthrough: ["XDG_DATA_HOME"],
      // required: the load begins late (docs/LANGUAGE-SERVERS.md#emmylua_ls-loads-after-configuration)
      ready: { progress: ["^Load workspace"], progress_required: true },
      // it answers textDocument/diagnostic (and workspace/diagnostic) and pushes nothing
      diagnostics_settle: "pull",
      // docs/LANGUAGE-SERVERS.md#emmylua_ls-counts-code-points
      position_encoding: "utf-32",
      line_terminators: [...LF_LINES],
    },
  }),
  preset({
    name: "clangd",
    binaries: ["clangd"],
    description:
      "C and C++; needs compile_commands.json. Opens one source file to start the " +
      "background index and waits for backgroundIndexProgress to end.",
    discovery: { alternatives: { ...C_SERVER, rank: 1 } },
    server: {
      args: ["--background-index", "--log=error", "--use-dirty-headers"], // docs/LANGUAGE-SERVERS.md
      languages: ["c", "cpp"],
      extensions: { ...C_FAMILY, ipp: "cpp", inl: "cpp" },
      roles: ["semantics", "diagnostics"],
      ready: {
        warmup_open: "**/*.{c,cc,cpp,cxx}",
        progress: ["backgroundIndexProgress"],
        // clangd begins indexing only after the warmup open; without this a request could
        // race ahead of the index (measured: it reports the task even with a warm index)
        progress_required: true,
      },
      requires: [
        {
          file: "compile_commands.json",
          format: "compile_commands",
          dir_arg: "--compile-commands-dir={dir}",
          // its index, kept beside the database, is then the session's own (SPEC §3.4)
          private_copy: true,
          hint: COMPILE_COMMANDS_HINT,
        },
      ],
      // it never reads these again: the session restarts (docs/LANGUAGE-SERVERS.md#clangd-build-configuration)
      restart_on: [
        "**/compile_commands.json",
        "**/compile_flags.txt",
        "**/.clangd",
        "**/*.{h,hh,hpp,hxx,h++,inc,inl,ipp,tcc,tpp}",
      ],
      // its background index keeps a changed file's old content (it re-indexes only what it
      // builds): a changed source or header is opened, so its own index entry is current
      open_changed_files: true,
      // where a lone CR ends a line differs by message (docs/LANGUAGE-SERVERS.md#clangd)
      line_terminators: ["lf"],
      answer_line_terminators: ["cr", "lf", "crlf"],
      edit_lines: { rename: "read", rename_others: "answer", code_action: "either" },
      program: "compile_commands",
      own_files: ["**/.cache/clangd/**"], // its index beside a database read in place
    },
  }),
  preset({
    name: "pyright",
    binaries: ["pyright-langserver"],
    description:
      "Python; ready once it logs `Found N source files`. Its version comes from the " +
      "sibling `pyright --version`, since pyright-langserver has no --version.",
    discovery: { alternatives: { ...PYTHON_SERVER, rank: 1 }, venv: pythonVenv },
    server: {
      ...PYRIGHT_SERVER,
      // it reloads its configuration late: the session restarts (docs/LANGUAGE-SERVERS.md#pyright-configuration)
      restart_on: ["pyrightconfig.json", "pyproject.toml"],
      // packages reach it late; a configuration reload at once (docs/LANGUAGE-SERVERS.md#pyright-installed-packages)
      reload_on: ["**/{site,dist}-packages/*"],
    },
    versionCommand: siblingVersion("pyright"),
  }),
  preset({
    name: "typescript-language-server",
    binaries: ["typescript-language-server"],
    description:
      "TypeScript and JavaScript (tls 5.x with typescript 5.x); opens a source file its " +
      "tsconfig includes, then waits for the 'Initializing JS/TS language features' progress " +
      "(in a project) and that file's first diagnostics.",
    discovery: { typescript: "tsserver" },
    server: {
      args: ["--stdio"],
      languages: ["typescript", "typescriptreact", "javascript", "javascriptreact"],
      extensions: { ...TYPESCRIPT_EXTENSIONS },
      roles: ["semantics", "diagnostics"],
      // no typings installer (docs/LANGUAGE-SERVERS.md#typescript-language-server-typings-installer);
      // file changes from the bridge's watcher, in order with requests (SPEC §5.2); one
      // tsserver, no syntax-only second (docs/LANGUAGE-SERVERS.md#typescript-language-server)
      initialization_options: {
        preferences: INLAY_HINTS.tsserver,
        disableAutomaticTypingAcquisition: true,
        tsserver: { useClientFileWatcher: true, useSyntaxServer: "never" },
      },
      ready: {
        // docs/LANGUAGE-SERVERS.md#typescript-language-server-symbols-follow-the-open-document
        warmup_open: "**/*.{ts,tsx,js,jsx}",
        progress: ["^Initializing JS/TS language features"],
        // it begins only after the warm-up open: required, or ready comes before the load
        progress_required: true,
        // docs/LANGUAGE-SERVERS.md#typescript-language-server-without-tsconfig
        project_files: ["tsconfig.json", "jsconfig.json"],
        // the project loaded; with a syntax server (tls's default) it answers from that before
        warmup_publish: true,
      },
      // SPEC §6: its publishes prove nothing complete
      diagnostics_settle: "tsserver",
      // it acts on its watchers' events for what it read (test/real/dependencies.test.ts)
      reads: [...TYPESCRIPT_READS],
      follows: [...TYPESCRIPT_READS],
      // a project file made or removed leaves open files in the projects they had
      restart_on: ["**/{tsconfig,jsconfig}*.json"],
      // docs/LANGUAGE-SERVERS.md#typescript-language-server-lines-end-at-u2028
      line_terminators: ["cr", "lf", "crlf", "u2028", "u2029"],
      // docs/LANGUAGE-SERVERS.md#typescript-language-server-without-tsconfig
      program: "tsconfig",
    },
  }),
  preset({
    name: "typescript-native",
    binaries: ["tsc"],
    versionPattern: /^Version 7\./,
    description:
      "TypeScript 7's native language server (`tsc --lsp --stdio`, npm typescript@7). It " +
      "answers diagnostics only by pull, so every diagnostics answer is complete (unlike " +
      "typescript-language-server's per-kind pushes, docs/SPEC.md §6); it opens one source " +
      "file its tsconfig includes, so that symbol searches cover the project.",
    discovery: { typescript: "native" },
    server: {
      args: ["--lsp", "--stdio"],
      languages: ["typescript", "typescriptreact", "javascript", "javascriptreact"],
      extensions: { ...TYPESCRIPT_EXTENSIONS },
      roles: ["semantics", "diagnostics"],
      // no readiness signal (docs/LANGUAGE-SERVERS.md#typescript-native-searches-open-projects)
      ready: {
        warmup_open: "**/*.{ts,tsx,js,jsx}",
        project_files: ["tsconfig.json", "jsconfig.json"],
      },
      diagnostics_settle: "pull",
      program: "tsconfig",
      settings: INLAY_HINTS.tsgo,
    },
  }),
  preset({
    name: "gopls",
    binaries: ["gopls"],
    description:
      "Go; ready when its 'Setting up workspace' progress (begun on `initialized`) has ended. " +
      "Version via `gopls version`.",
    discovery: { needsOnPath: { command: "go", why: GO_NEEDED } },
    runs: ["go"],
    server: {
      version_args: ["version"],
      languages: ["go", "go.mod", "go.work"],
      // it reports on (and opens) go.mod and go.work as documents of their own languages
      extensions: { go: "go", mod: "go.mod", work: "go.work" },
      roles: ["semantics", "diagnostics"],
      env_passthrough: [...GO_ENV],
      // symbols of the workspace's own packages (not the machine's Go installation), no
      // pkg.go.dev links; workspaceFiles: docs/LANGUAGE-SERVERS.md#gopls-new-packages
      settings: {
        gopls: {
          symbolScope: "workspace",
          linksInHover: false,
          workspaceFiles: ["**/go.mod", "**/go.work"],
          hints: INLAY_HINTS.gopls,
        },
      },
      package_manifest: "go.mod",
      // its watchers' events are in before the next request (test/real/gopls.test.ts)
      follows: ["**/*.{go,mod,sum,work}"],
      // required: docs/LANGUAGE-SERVERS.md#gopls-loads-after-initialized
      ready: { progress: ["^Setting up workspace"], progress_required: true },
      // an open document's publish carries its version (measured), also when it is empty
      diagnostics_settle: "version",
      // a lone CR is no line break to it (docs/LANGUAGE-SERVERS.md#gopls-lines-end-at-lf)
      line_terminators: ["lf"],
    },
  }),
];

/** Every preset, in the order reports list them. */
export const PRESETS: readonly Preset[] = [
  ...PROVEN_FIRST,
  ...WEB_PRESETS,
  ...TOOL_PRESETS,
  ...ALTERNATIVE_PRESETS,
  ...UNTESTED_PRESETS,
];

/** A preset as a `[[server]]` table in TOML terms (zero-config, `theodolite init`). */
export function presetServerTable(
  preset: Preset,
  command: string,
  version: string,
  versionCommand: string[] | null,
): Record<string, unknown> {
  return serverTable({
    name: preset.name,
    command,
    version,
    version_command: versionCommand,
    ...preset.server,
  });
}

export function findPreset(name: string): Preset | undefined {
  return PRESETS.find((p) => p.name === name);
}
