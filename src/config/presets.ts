/**
 * Presets (SPEC §1, §2): configuration data for the servers theodolite knows, used by
 * zero-config mode and `theodolite init`. A preset declares only the `[[server]]` keys that
 * differ from the schema's defaults and lacks only what is machine-specific — the absolute
 * command path and the exact version string — which discovery fills in from PATH. Each is
 * validated by the config schema when this module loads. Readiness follows SPEC §3.3 and the
 * measurements in docs/LANGUAGE-SERVERS.md, which has each server's traps by name.
 */
import { type Preset, preset, siblingVersion } from "./preset-declare.ts";
import {
  ALTERNATIVE_PRESETS,
  BACON_ROOT_HINT,
  baconGivesWay,
  C_FAMILY,
  C_SERVER,
  COMPILE_COMMANDS_HINT,
  cargoEnv,
  GO_ENV,
  GO_NEEDED,
  INLAY_HINTS,
  LUA_SERVER,
  PYRIGHT_READS,
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
      env_passthrough: cargoEnv(),
      // SPEC §3.3: quiescent alone is trivially true before the load starts; the probe
      // confirms the crate graph answers.
      ready: {
        quiescent: true,
        probe: { method: "workspace/symbol", params: { query: "" } },
      },
      diagnostics_settle: "quiescent",
      // a check it starts itself may be cancelled by the next, and a cancelled check ends
      // like a finished one: the bridge starts every check
      // (docs/LANGUAGE-SERVERS.md#rust-analyzer-cancelled-checks)
      initialization_options: { checkOnSave: false },
      settings: { "rust-analyzer": { checkOnSave: false } },
      diagnostics_runs: {
        // its `cargo check` (flycheck) pushes come after quiescence: a running check is waited for
        progress: ["flycheck"],
        start: { method: "rust-analyzer/runFlycheck", params: {} },
        // it publishes from its task pool, after the turn that ended the check: a request its
        // pool answers (jobs start in order) follows them; a main-loop answer may not.
        // Those publishes, each serialized on a thread of its own, can cross: a close makes
        // it publish the file once more, after them (its pushes hold only cargo's items,
        // since the bridge pulls its own diagnostics)
        barrier: {
          method: "workspace/symbol",
          params: { query: "theodolite barrier" },
          republish: true,
        },
      },
      // it reads watched files back on its loader thread, out of order with requests:
      // changed and new .rs files are opened instead (SPEC §5.2)
      open_changed_files: true,
      // it reloads its workspace on a manifest change only after answering from the old one
      // (docs/LANGUAGE-SERVERS.md#rust-analyzer-manifest-changes): the session restarts; so
      // it does for cargo's own configuration (`[env]` reaches `env!()`) and the toolchain
      restart_on: [
        "**/Cargo.toml",
        "**/Cargo.lock",
        "**/rust-analyzer.toml",
        "**/.cargo/config.toml",
        "**/.cargo/config",
        "rust-toolchain.toml",
        "rust-toolchain",
      ],
      // any other file may reach it (include_str!, a build script), and a restart costs its
      // whole load: answers are marked instead (SPEC §5.3)
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
      env_passthrough: cargoEnv(),
      // bacon-ls publishes partial snapshots while its check runs and checks on save,
      // not on open: settled once a check run has ended and none is running (measured)
      diagnostics_settle: "progress",
      diagnostics_runs: { progress: ["^checking$"] },
      // it runs cargo in the workspace root: with no crate there every check finds nothing,
      // and an empty answer would look like a clean crate (docs/LANGUAGE-SERVERS.md#bacon-ls)
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
      // LuaLS reports "Loading workspace" while it scans; not required, since a tiny
      // workspace may finish before any progress is reported.
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
      // it writes its log and its std library stubs under $XDG_DATA_HOME/emmylua_ls
      // (default ~/.local/share/emmylua_ls); definitions into std point there
      env_passthrough: ["XDG_DATA_HOME"],
      // "Load workspace" begins only after the client answered workspace/configuration,
      // well after initialize; required, or readiness could pass before the index exists
      // (docs/LANGUAGE-SERVERS.md#emmylua_ls-loads-after-configuration)
      ready: { progress: ["^Load workspace"], progress_required: true },
      // it answers textDocument/diagnostic (and workspace/diagnostic) and pushes nothing
      diagnostics_settle: "pull",
      // it announces no encoding (so UTF-16 would apply) but counts columns in code points
      // (docs/LANGUAGE-SERVERS.md#emmylua_ls-counts-code-points)
      position_encoding: "utf-32",
      // a lone CR is no line break to it (docs/LANGUAGE-SERVERS.md#the-servers-lines)
      line_terminators: ["lf"],
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
      extensions: {
        ...C_FAMILY,
        ipp: "cpp",
        inl: "cpp",
      },
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
      // clangd 14 registers no watchers and never reads these again: the session restarts
      // (docs/LANGUAGE-SERVERS.md#clangd-build-configuration), and on a header
      restart_on: [
        "**/compile_commands.json",
        "**/compile_flags.txt",
        "**/.clangd",
        "**/*.{h,hh,hpp,hxx,h++,inc,inl,ipp,tcc,tpp}",
      ],
      // its background index keeps a changed file's old content (it re-indexes only what it
      // builds): a changed source or header is opened, so its own index entry is current
      open_changed_files: true,
      // a lone CR ends no line where it reads and renames in the file asked; it does in its
      // answers, its renames elsewhere and some code actions (docs/LANGUAGE-SERVERS.md#clangd)
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
      args: ["--stdio"],
      languages: ["python"],
      extensions: { py: "python", pyi: "python" },
      shebangs: { python: "python", python3: "python" },
      roles: ["semantics", "diagnostics"],
      env_passthrough: ["VIRTUAL_ENV", "CONDA_PREFIX", "PYTHONPATH"],
      ready: { log_message: "Found \\d+ source file" },
      // it adds a new file to its program only when a timer re-enumerates the workspace:
      // new and changed .py files are opened instead (SPEC §5.2)
      open_changed_files: true,
      // it reloads its configuration on a timer of its own, after answering from the old
      // one: the session restarts instead (docs/LANGUAGE-SERVERS.md#pyright-configuration)
      restart_on: ["pyrightconfig.json", "pyproject.toml"],
      // a package added to, replaced in or removed from a Python environment reaches its
      // import resolution only on a 5 s timer; a configuration reload does it at once
      // (docs/LANGUAGE-SERVERS.md#pyright-installed-packages)
      reload_on: ["**/{site,dist}-packages/*"],
      // sources, stubs, `.pth` files, configuration (JSON, TOML), packages (SPEC §5.3)
      reads: [...PYRIGHT_READS],
      program: "pyrightconfig",
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
      // tls reads these at the top level of initializationOptions; disabling typings acquisition
      // keeps its installer off the network (docs/LANGUAGE-SERVERS.md#typescript-language-server-typings-installer);
      // useClientFileWatcher: tsserver gets its file changes from the bridge's watcher, in order
      // with the requests, instead of from its own timers (SPEC §5.2); preferences: INLAY_HINTS
      initialization_options: {
        preferences: INLAY_HINTS.tsserver,
        disableAutomaticTypingAcquisition: true,
        tsserver: { useClientFileWatcher: true },
      },
      ready: {
        // the warm-up opens a file its tsconfig includes: tls searches symbols in the
        // project of the document it opened last (docs/LANGUAGE-SERVERS.md#typescript-language-server-symbols-follow-the-open-document)
        warmup_open: "**/*.{ts,tsx,js,jsx}",
        progress: ["^Initializing JS/TS language features"],
        // the task begins only after the warmup open has reached tsserver: require it,
        // or readiness could complete before the project load even started
        progress_required: true,
        // tsserver reports loading a configured project only: a file in no project loads
        // silently (docs/LANGUAGE-SERVERS.md#typescript-language-server-without-tsconfig)
        project_files: ["tsconfig.json", "jsconfig.json"],
        // until tsserver's first diagnostics event tls sends hover, definition and symbol
        // requests to its syntax-only tsserver, which knows open files only; that event is
        // what its first publish for the warm-up file follows
        warmup_publish: true,
      },
      // diagnostics asked of tsserver, complete by construction (SPEC §6): its publishes come
      // once per kind, with no version and no end signal
      diagnostics_settle: "tsserver",
      // it acts on its watchers' events for what it read (test/real/dependencies.test.ts)
      reads: [...TYPESCRIPT_READS],
      follows: [...TYPESCRIPT_READS],
      // a project file made or removed leaves open files in the projects they had
      restart_on: ["**/{tsconfig,jsconfig}*.json"],
      // tsserver's lines, which tls passes through: U+2028 and U+2029 end lines too
      // (docs/LANGUAGE-SERVERS.md#typescript-language-server-lines-end-at-u2028)
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
      // no readiness signal; the warm-up opens a file its tsconfig includes, since its symbol
      // search covers only projects of open files (docs/LANGUAGE-SERVERS.md#typescript-native-searches-open-projects)
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
      // answers workspace/configuration section "gopls": workspace_symbols from the
      // workspace's own packages, not the Go installation's (whose symbols and absolute
      // paths change with the machine), and hovers without pkg.go.dev links; hints: INLAY_HINTS
      // workspaceFiles: a go.mod changed on disk reloads every package, which is how a new
      // package directory reaches it (package_manifest; docs/LANGUAGE-SERVERS.md#gopls-new-packages)
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
      // the task begins a few ms after `initialized`, so without `progress_required` readiness
      // could pass before the load began (docs/LANGUAGE-SERVERS.md#gopls-loads-after-initialized)
      ready: { progress: ["^Setting up workspace"], progress_required: true },
      // an open document's publish carries its version (measured), also when it is empty
      diagnostics_settle: "version",
      // a lone CR is no line break to it (docs/LANGUAGE-SERVERS.md#gopls-lines-end-at-lf)
      line_terminators: ["lf"],
    },
  }),
];

/**
 * Every preset, in the order reports list them: the servers first served here, then the web
 * and tool servers, the alternatives for languages already served, and the untested ones.
 */
export const PRESETS: readonly Preset[] = [
  ...PROVEN_FIRST,
  ...WEB_PRESETS,
  ...TOOL_PRESETS,
  ...ALTERNATIVE_PRESETS,
  ...UNTESTED_PRESETS,
];

/**
 * A preset as a `[[server]]` table in TOML terms, ready for `validateConfig` (zero-config
 * mode) or smol-toml's `stringify` (`theodolite init`).
 */
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
