/**
 * Presets for the web's languages (SPEC §2.1), each with the settings it needs to run
 * headless (no schema store, no telemetry); docs/LANGUAGE-SERVERS.md has one section each.
 */
import { DATA_FILES, LF_LINES, npmPackageVersion, type Preset, preset } from "./preset-declare.ts";

const EXTRACTED = "vscode-langservers-extracted";

export const WEB_PRESETS: readonly Preset[] = [
  preset({
    name: "vscode-html-language-server",
    binaries: ["vscode-html-language-server"],
    versionCommand: npmPackageVersion(EXTRACTED),
    description:
      "HTML with its embedded CSS and JavaScript (npm vscode-langservers-extracted); " +
      "diagnostics by pull (the embedded scripts' and styles').",
    server: {
      args: ["--stdio"],
      languages: ["html"],
      extensions: { html: "html", htm: "html" },
      roles: ["semantics", "diagnostics"],
      workspace_symbols: false, // it offers no workspace/symbol
      initialization_options: {
        provideFormatter: false,
        embeddedLanguages: { css: true, javascript: true },
      },
      // without its settings it validates nothing (docs/LANGUAGE-SERVERS.md#vscode-html-language-server)
      settings: { html: { validate: { scripts: true, styles: true } }, css: {}, javascript: {} },
      // it answers textDocument/diagnostic and pushes nothing to a client that pulls
      diagnostics_settle: "pull",
    },
  }),
  preset({
    name: "vscode-css-language-server",
    binaries: ["vscode-css-language-server"],
    versionCommand: npmPackageVersion(EXTRACTED),
    description: "CSS, SCSS and Less (npm vscode-langservers-extracted); diagnostics by pull.",
    server: {
      args: ["--stdio"],
      languages: ["css", "scss", "less"],
      extensions: { css: "css", scss: "scss", less: "less" },
      roles: ["semantics", "diagnostics"],
      workspace_symbols: false, // it offers no workspace/symbol
      initialization_options: { provideFormatter: false },
      settings: { css: { validate: true }, scss: { validate: true }, less: { validate: true } },
      diagnostics_settle: "pull",
    },
  }),
  preset({
    name: "vscode-json-language-server",
    binaries: ["vscode-json-language-server"],
    versionCommand: npmPackageVersion(EXTRACTED),
    description:
      "JSON (npm vscode-langservers-extracted): validates against the schemas files name by " +
      "a local path only, never downloads one; diagnostics by pull.",
    server: {
      args: ["--stdio"],
      languages: ["json", "jsonc"],
      extensions: { json: "json", jsonc: "jsonc" },
      roles: ["semantics", "diagnostics"],
      ...DATA_FILES,
      // local schemas only (docs/LANGUAGE-SERVERS.md#vscode-json-language-server)
      initialization_options: { provideFormatter: false, handledSchemaProtocols: ["file"] },
      settings: { json: { validate: { enable: true } } },
      diagnostics_settle: "pull",
    },
  }),
  preset({
    name: "yaml-language-server",
    binaries: ["yaml-language-server"],
    versionCommand: npmPackageVersion("yaml-language-server"),
    description:
      "YAML (npm yaml-language-server, Red Hat's); the schema store and telemetry off. Its " +
      "publishes carry no version: answers are marked unsettled.",
    server: {
      args: ["--stdio"],
      languages: ["yaml"],
      extensions: { yaml: "yaml", yml: "yaml" },
      roles: ["semantics", "diagnostics"],
      ...DATA_FILES,
      settings: {
        yaml: { schemaStore: { enable: false }, validate: true, hover: true, completion: true },
        redhat: { telemetry: { enabled: false } },
      },
      diagnostics_settle: "publish",
    },
  }),
  preset({
    name: "svelte-language-server",
    binaries: ["svelteserver"],
    versionCommand: npmPackageVersion("svelte-language-server"),
    description:
      "Svelte components (npm svelte-language-server, with TypeScript); diagnostics by pull.",
    server: {
      args: ["--stdio"],
      languages: ["svelte"],
      extensions: { svelte: "svelte" },
      roles: ["semantics", "diagnostics"],
      diagnostics_settle: "pull",
    },
  }),
  preset({
    name: "astro-ls",
    binaries: ["astro-ls"],
    versionCommand: npmPackageVersion("@astrojs/language-server"),
    description:
      "Astro components (npm @astrojs/language-server); needs a TypeScript library " +
      "(typescript.tsdk), which discovery takes from the workspace or beside the server.",
    typescriptLib: (lib) => ({ typescript: { tsdk: lib } }),
    server: {
      args: ["--stdio"],
      languages: ["astro"],
      extensions: { astro: "astro" },
      roles: ["semantics", "diagnostics"],
      // its pull is complete, its publishes not (docs/LANGUAGE-SERVERS.md#astro-ls)
      diagnostics_settle: "pull",
    },
  }),
  preset({
    name: "vue-language-server",
    binaries: ["vue-language-server"],
    untested: true,
    description:
      "Vue (npm @vue/language-server 3): untested here — its TypeScript features need the " +
      "client to relay tsserver requests, which theodolite does not.",
    typescriptLib: (lib) => ({ typescript: { tsdk: lib } }),
    server: {
      args: ["--stdio"],
      languages: ["vue"],
      extensions: { vue: "vue" },
      roles: ["semantics", "diagnostics"],
      diagnostics_settle: "pull",
    },
  }),
  preset({
    name: "graphql-lsp",
    binaries: ["graphql-lsp"],
    versionCommand: npmPackageVersion("graphql-language-service-cli"),
    description:
      "GraphQL (npm graphql-language-service-cli) with the workspace's graphql-config; " +
      "ready once its caches are initialized after the first open.",
    server: {
      args: ["server", "-m", "stream"],
      languages: ["graphql"],
      extensions: { graphql: "graphql", gql: "graphql" },
      roles: ["semantics", "diagnostics"],
      // its caches are built on the first didOpen; until then every answer is empty
      ready: {
        warmup_open: "**/*.{graphql,gql}",
        log_message: "caches initialized",
      },
      diagnostics_settle: "publish",
      line_terminators: [...LF_LINES],
    },
  }),
  preset({
    name: "intelephense",
    binaries: ["intelephense"],
    versionCommand: npmPackageVersion("intelephense"),
    description:
      "PHP (npm intelephense, its free features); ready once it has indexed the workspace, " +
      "telemetry off.",
    server: {
      args: ["--stdio"],
      languages: ["php"],
      extensions: { php: "php", phtml: "php" },
      roles: ["semantics", "diagnostics"],
      settings: { intelephense: { telemetry: { enabled: false } } },
      // undefined functions and types are known only once the index is built
      ready: { log_message: "^Indexer: Indexing finished" },
      diagnostics_settle: "publish",
    },
  }),
  preset({
    name: "postgres-language-server",
    binaries: ["postgres-language-server"],
    description:
      "SQL (npm @postgres-language-server/cli): syntax diagnostics without a database; " +
      "its publishes carry the document version.",
    server: {
      args: ["lsp-proxy"],
      languages: ["sql"],
      extensions: { sql: "sql" },
      roles: ["semantics", "diagnostics"],
      workspace_symbols: false, // it offers no workspace/symbol
      // its daemon's socket (docs/LANGUAGE-SERVERS.md#postgres-language-server)
      env_passthrough: ["XDG_CACHE_HOME"],
      diagnostics_settle: "version",
      line_terminators: [...LF_LINES],
    },
  }),
];
