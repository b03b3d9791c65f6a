/**
 * Presets for languages already served, as alternatives (SPEC §2.1: one server per language
 * and role), and the untested presets (docs/LANGUAGE-SERVERS.md has their install routes).
 */
import {
  type Preset,
  type PresetDeclaration,
  preset,
  siblingVersion,
  type WorkspaceFacts,
} from "./preset-declare.ts";

/** TypeScript 7's inlay hint settings, asked in its `typescript` and `javascript` sections. */
const TSGO_HINTS = {
  parameterNames: { enabled: "all" },
  parameterTypes: { enabled: true },
  variableTypes: { enabled: true },
  propertyDeclarationTypes: { enabled: true },
  functionLikeReturnTypes: { enabled: true },
  enumMemberValues: { enabled: true },
} as const;

/** The inlay hints `inlay_hints` answers (docs/LANGUAGE-SERVERS.md#inlay-hints-are-off-until-asked-for). */
export const INLAY_HINTS = {
  tsgo: { typescript: { inlayHints: TSGO_HINTS }, javascript: { inlayHints: TSGO_HINTS } },
  tsserver: {
    includeInlayParameterNameHints: "all",
    includeInlayFunctionParameterTypeHints: true,
    includeInlayVariableTypeHints: true,
    includeInlayPropertyDeclarationTypeHints: true,
    includeInlayFunctionLikeReturnTypeHints: true,
    includeInlayEnumMemberValueHints: true,
  },
  gopls: {
    assignVariableTypes: true,
    compositeLiteralFields: true,
    compositeLiteralTypes: true,
    constantValues: true,
    functionTypeParameters: true,
    parameterNames: true,
    rangeVariableTypes: true,
  },
} as const;

export const TYPESCRIPT_EXTENSIONS = {
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "typescriptreact",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "javascriptreact",
};

/** What tsserver reads: its sources, JSON, and package directories (SPEC §5.3 `reads`). */
export const TYPESCRIPT_READS = [
  "**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs,json}",
  "**/node_modules/{*,@*/*}",
];

/** The files every Python server serves. */
const PYTHON_FILES = {
  languages: ["python"],
  extensions: { py: "python", pyi: "python" },
  shebangs: { python: "python", python3: "python" },
};

/** pyright and basedpyright, one program (docs/LANGUAGE-SERVERS.md#pyright-configuration). */
export const PYRIGHT_SERVER = {
  args: ["--stdio"],
  ...PYTHON_FILES,
  roles: ["semantics", "diagnostics"],
  env_passthrough: ["VIRTUAL_ENV", "CONDA_PREFIX", "PYTHONPATH"],
  ready: { log_message: "Found \\d+ source file" },
  // it takes a new file in only on a timer: changed and new files are opened (SPEC §5.2)
  open_changed_files: true,
  // sources, stubs, `.pth` files, configuration (JSON, TOML), packages (SPEC §5.3)
  reads: ["**/*.{py,pyi,pth,json,toml}", "**/py.typed", "**/{site,dist}-packages/*"],
  program: "pyrightconfig",
} satisfies PresetDeclaration["server"];

/** C and C++ by extension (clangd takes the language from compile flags; this only routes). */
export const C_FAMILY = {
  c: "c",
  h: "cpp",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  "c++": "cpp",
  hh: "cpp",
  hpp: "cpp",
  hxx: "cpp",
};

/** cargo's and rustup's environment, passed through to the Rust servers. */
export const CARGO_ENV = [
  ["CARGO_HOME", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN"],
  ["RUST_SRC_PATH", "CARGO_NET_OFFLINE"],
].flat();

/** bacon-ls runs cargo in the root: beside rust-analyzer only when a crate is there. */
export function baconGivesWay(here: WorkspaceFacts): string | null {
  const why = "bacon-ls checks the crate in the workspace root and there is no Cargo.toml there";
  return here.cargoAtRoot ? null : `${why} (rust-analyzer diagnoses the .rs files)`;
}

/** The go command's environment, passed through to gopls. */
export const GO_ENV = [
  ["GOPATH", "GOROOT", "GOFLAGS", "GOMODCACHE", "GOCACHE"],
  ["GOPROXY", "GOPRIVATE", "GOTOOLCHAIN", "GOWORK"],
].flat();

export const GO_NEEDED =
  "which it loads packages with: install Go and put its bin directory on PATH";

export const BACON_ROOT_HINT =
  "bacon-ls checks the crate (or cargo workspace) at the workspace root: point the workspace " +
  "root at the directory holding Cargo.toml, or let rust-analyzer serve Rust diagnostics";

export const COMPILE_COMMANDS_HINT =
  "clangd needs compile_commands.json to index: generate it with CMake " +
  "(-DCMAKE_EXPORT_COMPILE_COMMANDS=ON), `bear -- make`, or `compiledb make`; if it lives in " +
  'a build directory, set file_dirs = { "compile_commands.json" = "build" } on the workspace';

/** Groups of alternatives (SPEC §2.1): one server per language and role. */
export const PYTHON_SERVER = { group: "python", files: ".py", language: "Python" };
export const C_SERVER = { group: "c", files: "C/C++", language: "C/C++" };
export const LUA_SERVER = { group: "lua", files: ".lua", language: "Lua" };

/** A Python server pointed at the root's virtual environment. */
export const pythonVenv = (python: string) => ({ python: { pythonPath: python } });

/** ruff joins a Python server only where the workspace configures it (else it takes its place). */
function ruffGivesWay(here: WorkspaceFacts): string | null {
  const python = here.serving(PYTHON_SERVER.group);
  if (python === undefined || here.ruffConfig !== null) return null;
  return (
    `${python} diagnoses the .py files; ruff diagnoses instead (and ${python} keeps ` +
    "semantics) when the workspace configures ruff: ruff.toml, .ruff.toml or [tool.ruff] " +
    "in pyproject.toml"
  );
}

function ruffChosenFor(here: WorkspaceFacts): string | null {
  return here.ruffConfig === null ? null : `the workspace configures ruff (${here.ruffConfig})`;
}

export const ALTERNATIVE_PRESETS: readonly Preset[] = [
  preset({
    name: "ruff",
    binaries: ["ruff"],
    description:
      "Python lint diagnostics (PyPI ruff, `ruff server`), by pull; diagnostics role only, " +
      "beside a Python server for semantics.",
    discovery: { givesWay: ruffGivesWay, chosenFor: ruffChosenFor },
    server: {
      args: ["server"],
      ...PYTHON_FILES,
      roles: ["diagnostics"],
      diagnostics_settle: "pull",
    },
  }),
  preset({
    name: "basedpyright",
    binaries: ["basedpyright-langserver"],
    description:
      "Python (PyPI basedpyright, a pyright fork); ready once it logs `Found N source " +
      "files`; version from the sibling `basedpyright --version`.",
    discovery: { alternatives: { ...PYTHON_SERVER, rank: 2 }, venv: pythonVenv },
    server: PYRIGHT_SERVER,
    versionCommand: siblingVersion("basedpyright"),
  }),
  preset({
    name: "ty",
    binaries: ["ty"],
    description: "Python (PyPI ty, Astral's type checker, `ty server`); diagnostics by pull.",
    discovery: { alternatives: { ...PYTHON_SERVER, rank: 3 } },
    server: {
      args: ["server"],
      ...PYTHON_FILES,
      roles: ["semantics", "diagnostics"],
      diagnostics_settle: "pull",
    },
  }),
  preset({
    name: "pylsp",
    binaries: ["pylsp"],
    description:
      "Python (python-lsp-server: Debian python3-pylsp or PyPI); jedi's columns in code " +
      "points, pyflakes diagnostics when installed.",
    discovery: { alternatives: { ...PYTHON_SERVER, rank: 4 } },
    server: {
      ...PYTHON_FILES,
      roles: ["semantics", "diagnostics"],
      workspace_symbols: false, // it offers no workspace/symbol
      env_passthrough: ["VIRTUAL_ENV", "PYTHONPATH"],
      // jedi counts code points and pylsp announces none (docs/LANGUAGE-SERVERS.md#pylsp)
      position_encoding: "utf-32",
      diagnostics_settle: "publish",
    },
  }),
  preset({
    name: "ccls",
    binaries: ["ccls"],
    description:
      "C and C++ (Debian ccls); needs compile_commands.json; keeps its index in memory, " +
      "writes no cache.",
    discovery: { alternatives: { ...C_SERVER, rank: 2 } },
    server: {
      languages: ["c", "cpp"],
      extensions: { ...C_FAMILY },
      roles: ["semantics", "diagnostics"],
      // an empty cache directory: the index lives in memory, nothing is written to the root;
      // one indexer: two indexing one file at once abort it (docs/LANGUAGE-SERVERS.md#ccls)
      initialization_options: { cache: { directory: "" }, index: { threads: 1 } },
      // no readiness condition, code points (docs/LANGUAGE-SERVERS.md#ccls)
      position_encoding: "utf-32",
      diagnostics_settle: "publish",
      // it indexes what it opens; a restart would leave it "not indexed": marks (SPEC §5.3)
      open_changed_files: true,
      unproven: "mark",
      requires: [
        {
          file: "compile_commands.json",
          format: "compile_commands",
          dir_arg: '--init={"compilationDatabaseDirectory":"{dir}"}',
          hint:
            "ccls needs compile_commands.json to index: generate it with CMake " +
            "(-DCMAKE_EXPORT_COMPILE_COMMANDS=ON) or `bear -- make`",
        },
      ],
      // it indexes the files its database names
      program: "compile_commands",
    },
  }),
];

export const UNTESTED_PRESETS: readonly Preset[] = [
  preset({
    name: "jdtls",
    binaries: ["jdtls"],
    untested: true,
    description: "Java (Eclipse JDT LS, release archive): untested here.",
    server: {
      languages: ["java"],
      extensions: { java: "java" },
      roles: ["semantics", "diagnostics"],
      diagnostics_settle: "publish",
    },
  }),
  preset({
    name: "csharp-ls",
    binaries: ["csharp-ls"],
    untested: true,
    description: "C# (csharp-ls, a .NET global tool): untested here.",
    server: {
      languages: ["csharp"],
      extensions: { cs: "csharp", csx: "csharp" },
      roles: ["semantics", "diagnostics"],
      diagnostics_settle: "publish",
    },
  }),
  preset({
    name: "ruby-lsp",
    binaries: ["ruby-lsp"],
    untested: true,
    description: "Ruby (Shopify's ruby-lsp, a gem): untested here; diagnostics by pull.",
    server: {
      languages: ["ruby"],
      extensions: { rb: "ruby", rake: "ruby", gemspec: "ruby" },
      filenames: { Gemfile: "ruby", Rakefile: "ruby" },
      shebangs: { ruby: "ruby" },
      roles: ["semantics", "diagnostics"],
      diagnostics_settle: "pull",
    },
  }),
  preset({
    name: "kotlin-language-server",
    binaries: ["kotlin-language-server"],
    untested: true,
    description: "Kotlin (fwcd's kotlin-language-server, release archive): untested here.",
    server: {
      languages: ["kotlin"],
      extensions: { kt: "kotlin", kts: "kotlin" },
      roles: ["semantics", "diagnostics"],
      diagnostics_settle: "publish",
    },
  }),
];
