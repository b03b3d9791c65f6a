/**
 * The polyglot fixture served zero-config (SPEC §2.1): the PATH on which discovery finds the
 * servers .ci/setup-servers installed, the servers it should configure, and one call per
 * language that every language must answer — hover or document symbols, and diagnostics.
 * Shared by test/real/polyglot.test.ts (the behaviour) and bench/polyglot.ts (its time and
 * memory, docs/PERFORMANCE.md).
 */
import { dirname, join } from "node:path";
import { TEST_SERVERS_DIR } from "./real-servers.ts";

/** test/servers' npm and PyPI servers, the cargo and Go installs, then the system's. */
export function polyglotPath(): string {
  const cargo = join(process.env.CARGO_HOME ?? join(process.env.HOME ?? "", ".cargo"), "bin");
  const node = Bun.which("node");
  return [
    join(TEST_SERVERS_DIR, "node_modules", ".bin"),
    join(TEST_SERVERS_DIR, "lsp", "bin"),
    cargo,
    ...(node ? [dirname(node)] : []),
    "/usr/local/bin",
    "/usr/bin",
    "/bin",
  ].join(":");
}

/** What discovery configures for the fixture, in the presets' order. */
export const POLYGLOT_SERVERS = [
  "pyright",
  "vscode-html-language-server",
  "vscode-css-language-server",
  "vscode-json-language-server",
  "yaml-language-server",
  "svelte-language-server",
  "astro-ls",
  "graphql-lsp",
  "intelephense",
  "postgres-language-server",
  "bash-language-server",
  "docker-langserver",
  "taplo",
  "cmake-language-server",
  "fortls",
  "texlab",
];

export interface LanguageCall {
  language: string;
  server: string;
  /** hover, or document_symbols where hover has nothing to say */
  read: { tool: "hover" | "document_symbols"; args: Record<string, unknown> };
  /** a file with an error: diagnostics must find at least one (none: no diagnostics role) */
  diagnostics?: string;
}

export const POLYGLOT_CALLS: LanguageCall[] = [
  {
    language: "PHP",
    server: "intelephense",
    read: { tool: "hover", args: { file: "api/index.php", line: 6, symbol: "total_area" } },
    diagnostics: "api/broken.php",
  },
  {
    language: "HTML",
    server: "vscode-html-language-server",
    read: { tool: "document_symbols", args: { file: "web/index.html" } },
    diagnostics: "web/index.html",
  },
  {
    language: "CSS",
    server: "vscode-css-language-server",
    read: {
      tool: "hover",
      args: { file: "web/styles/site.css", line: 10, symbol: "border-color" },
    },
    diagnostics: "web/styles/site.css",
  },
  {
    language: "SCSS",
    server: "vscode-css-language-server",
    read: { tool: "document_symbols", args: { file: "web/styles/theme.scss" } },
    diagnostics: "web/styles/theme.scss",
  },
  {
    language: "Less",
    server: "vscode-css-language-server",
    read: { tool: "document_symbols", args: { file: "web/styles/legacy.less" } },
    diagnostics: "web/styles/legacy.less",
  },
  {
    language: "JSON",
    server: "vscode-json-language-server",
    read: { tool: "hover", args: { file: "config/settings.json", line: 4, symbol: "port" } },
    diagnostics: "config/settings.json",
  },
  {
    language: "YAML",
    server: "yaml-language-server",
    read: { tool: "hover", args: { file: "ci/pipeline.yaml", line: 9, symbol: "run" } },
    diagnostics: "ci/pipeline.yaml",
  },
  {
    language: "Svelte",
    server: "svelte-language-server",
    read: {
      tool: "hover",
      args: { file: "web/components/Badge.svelte", line: 12, symbol: "shout" },
    },
    diagnostics: "web/components/Badge.svelte",
  },
  {
    language: "Astro",
    server: "astro-ls",
    read: { tool: "hover", args: { file: "web/pages/index.astro", line: 14, symbol: "double" } },
    diagnostics: "web/pages/index.astro",
  },
  {
    language: "GraphQL",
    server: "graphql-lsp",
    read: {
      tool: "hover",
      args: { file: "web/graphql/queries.graphql", line: 5, symbol: "area" },
    },
    diagnostics: "web/graphql/queries.graphql",
  },
  {
    language: "SQL",
    server: "postgres-language-server",
    // no database: hover answers nothing, and it offers no symbols; its diagnostics answer
    read: { tool: "hover", args: { file: "db/schema.sql", line: 11, symbol: "area" } },
    diagnostics: "db/schema.sql",
  },
  {
    language: "Shell",
    server: "bash-language-server",
    read: { tool: "hover", args: { file: "scripts/release", line: 7, symbol: "total_area" } },
    diagnostics: "scripts/release",
  },
  {
    language: "Dockerfile",
    server: "docker-langserver",
    read: { tool: "document_symbols", args: { file: "infra/Dockerfile" } },
    diagnostics: "infra/Dockerfile",
  },
  {
    language: "TOML",
    server: "taplo",
    read: { tool: "document_symbols", args: { file: "config/app.toml" } },
    diagnostics: "config/app.toml",
  },
  {
    language: "CMake",
    server: "cmake-language-server",
    read: {
      tool: "hover",
      args: { file: "native/CMakeLists.txt", line: 7, symbol: "add_executable" },
    },
  },
  {
    language: "Fortran",
    server: "fortls",
    read: { tool: "hover", args: { file: "native/main.f90", line: 7, symbol: "area" } },
    diagnostics: "native/main.f90",
  },
  {
    language: "LaTeX",
    server: "texlab",
    read: { tool: "hover", args: { file: "docs/paper.tex", line: 16, symbol: "sec:totals" } },
    diagnostics: "docs/paper.tex",
  },
  {
    language: "Python",
    server: "pyright",
    read: { tool: "hover", args: { file: "service/app.py", line: 6, symbol: "total_area" } },
    diagnostics: "service/app.py",
  },
];
