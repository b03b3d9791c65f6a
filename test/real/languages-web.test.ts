/**
 * The web's language servers through the compiled bridge on the polyglot fixture (SPEC §11):
 * HTML, CSS/SCSS/Less and JSON (vscode-langservers-extracted), YAML, Svelte, Astro, GraphQL,
 * PHP (intelephense) and SQL (postgres-language-server). Each: readiness by its own signal,
 * the read tools it offers with positions in code points after astral characters, what it
 * lacks as ServerLacksCapability, and one file's diagnostics — settled where the server
 * proves it (pull, versioned publishes), marked unsettled where nothing does. The answers
 * are measured (test/fixtures/README.md); each server's traps are in
 * docs/LANGUAGE-SERVERS.md.
 */
import { type LanguageCase, languageCases } from "../support/language-suite.ts";
import { blockComment, lineComment } from "../support/line-probe.ts";
import { diagnosticAt, range } from "../support/real-bridge.ts";

const WEB: LanguageCase[] = [
  {
    server: "vscode-html-language-server",
    lines: {
      file: "web/probe.html",
      head: "<html><body>",
      tail: "</body></html>",
      def: (n) => `<div id="${n}"></div>`,
      symbol: (n) => `div#${n}`,
      comment: blockComment("<!--", "-->"),
      by: "symbols",
    },
    ready: [],
    encoding: "utf-16",
    // `span` after two emoji: code points 28–31 (UTF-16 30–33)
    hover: [
      {
        at: { file: "web/index.html", line: 13, symbol: "span" },
        includes: "The span element doesn't mean anything on its own",
        range: range(13, 28, 13, 32),
      },
    ],
    definition: [
      {
        at: { file: "web/index.html", line: 19, symbol: "totalArea" },
        locs: ["web/index.html 16:16–16:25"],
      },
    ],
    references: [
      {
        at: { file: "web/index.html", line: 19, symbol: "totalArea" },
        locs: ["web/index.html 16:16–16:25", "web/index.html 19:59–19:68"],
      },
    ],
    symbols: [
      {
        file: "web/index.html",
        tree: [
          "html field 2:1–23:8 / 2:1–23:8",
          "  head field 3:3–10:10 / 3:3–10:10",
          "    meta field 4:5–4:27 / 4:5–4:27",
          "    title field 5:5–5:26 / 5:5–5:26",
          "    link field 6:5–6:51 / 6:5–6:51",
          "    style field 7:5–9:13 / 7:5–9:13",
          "      .total class 8:7–8:36 / 8:7–8:36",
          "  body field 11:3–22:10 / 11:3–22:10",
          "    main#app field 12:5–14:12 / 12:5–14:12",
          "      p.total field 13:7–13:54 / 13:7–13:54",
          "        span#sum field 13:27–13:50 / 13:27–13:50",
          "    script field 15:5–21:14 / 15:5–21:14",
          "      totalArea function 16:7–18:8 / 16:7–18:8",
          "        rects.reduce() callback function 17:29–17:65 / 17:29–17:65",
          "      broken variable 20:13–20:28 / 20:13–20:28",
        ],
      },
    ],
    lacks: [
      { tool: "declaration", args: { file: "web/index.html", line: 19, symbol: "totalArea" } },
      { tool: "implementation", args: { file: "web/index.html", line: 19, symbol: "totalArea" } },
    ],
    // the embedded script's syntax error, after two emoji
    diagnostics: {
      file: "web/index.html",
      settled: true,
      items: [
        diagnosticAt("pull", "web/index.html", [20, 29, 20, 30], "error", {
          source: "javascript",
          message: "Expression expected.",
        }),
      ],
    },
  },
  {
    server: "vscode-css-language-server",
    lines: {
      file: "web/styles/probe.css",
      def: (n) => `.${n} { color: red; }`,
      symbol: (n) => `.${n}`,
      comment: blockComment("/*", "*/"),
      by: "symbols",
    },
    ready: [],
    encoding: "utf-16",
    hover: [
      {
        at: { file: "web/styles/site.css", line: 10, symbol: "border-color" },
        includes: "The color of the border around all four edges of an element",
        range: range(10, 19, 10, 45),
      },
    ],
    definition: [
      {
        at: { file: "web/styles/site.css", line: 10, symbol: "--brand" },
        locs: ["web/styles/site.css 2:3–2:10"],
      },
      {
        at: { file: "web/styles/theme.scss", line: 12, symbol: "$accent" },
        locs: ["web/styles/theme.scss 1:1–1:17"],
      },
    ],
    references: [
      {
        at: { file: "web/styles/site.css", line: 10, symbol: "--brand" },
        locs: [
          "web/styles/site.css 2:3–2:10",
          "web/styles/site.css 6:14–6:21",
          "web/styles/site.css 10:37–10:44",
        ],
      },
      {
        at: { file: "web/styles/legacy.less", line: 12, symbol: "@accent" },
        locs: [
          "web/styles/legacy.less 1:1–1:8",
          "web/styles/legacy.less 9:10–9:17",
          "web/styles/legacy.less 12:25–12:32",
          "web/styles/legacy.less 15:9–15:16",
        ],
      },
    ],
    symbols: [
      {
        file: "web/styles/site.css",
        tree: [
          ":root class 1:1–3:2 / 1:1–1:6",
          ".card class 5:1–8:2 / 5:1–5:6",
          ".badge class 10:10–10:48 / 10:10–10:16",
          ".broken class 12:1–14:2 / 12:1–12:8",
        ],
      },
      {
        file: "web/styles/theme.scss",
        tree: [
          "$accent variable 1:1–1:17 / 1:1–1:8",
          "rounded method 3:1–5:2 / 3:8–3:15",
          ".button class 7:1–10:2 / 7:1–7:8",
          ".link class 12:10–12:35 / 12:10–12:15",
          ".broken class 14:1–16:2 / 14:1–14:8",
        ],
      },
    ],
    lacks: [
      { tool: "declaration", args: { file: "web/styles/site.css", line: 10, symbol: "--brand" } },
      {
        tool: "implementation",
        args: { file: "web/styles/site.css", line: 10, symbol: "--brand" },
      },
    ],
    diagnostics: {
      file: "web/styles/theme.scss",
      settled: true,
      items: [
        diagnosticAt("pull", "web/styles/theme.scss", [15, 3, 15, 7], "warning", {
          code: "unknownProperties",
          source: "scss",
          message: "Unknown property: 'colr'",
        }),
      ],
    },
  },
  {
    // the same server on Less: its own tree, its hover after two emoji, its diagnostics
    server: "vscode-css-language-server",
    ready: [],
    encoding: "utf-16",
    hover: [
      {
        at: { file: "web/styles/legacy.less", line: 12, symbol: "color" },
        includes: "Sets the color of an element's text",
        range: range(12, 18, 12, 32),
      },
    ],
    symbols: [
      {
        file: "web/styles/legacy.less",
        tree: [
          "@accent variable 1:1–1:17 / 1:1–1:8",
          ".rounded method 3:1–5:2 / 3:1–3:9",
          ".panel class 7:1–10:2 / 7:1–7:7",
          ".note class 12:10–12:35 / 12:10–12:15",
          ".broken class 14:1–16:2 / 14:1–14:8",
        ],
      },
    ],
    diagnostics: {
      file: "web/styles/legacy.less",
      settled: true,
      items: [
        diagnosticAt("pull", "web/styles/legacy.less", [15, 3, 15, 7], "warning", {
          code: "unknownProperties",
          source: "less",
          message: "Unknown property: 'colr'",
        }),
      ],
    },
  },
  {
    server: "vscode-json-language-server",
    lines: {
      file: "config/probe.json",
      head: "{",
      tail: '"end": 0}',
      def: (n) => `"${n}": 1,`,
      // JSON has no comments: the mark in a string
      comment: (mark) => `"pad": "probe${mark}probe",`,
      by: "symbols",
    },
    ready: [],
    encoding: "utf-16",
    // the local schema's description, its markdown escape resolved (hovers are plain);
    // `port` after two emoji
    hover: [
      {
        at: { file: "config/settings.json", line: 4, symbol: "port" },
        text: "The port it listens on.",
        range: range(4, 18, 4, 24),
      },
    ],
    symbols: [
      {
        file: "config/settings.json",
        tree: [
          "$schema string 2:3–2:38 / 2:3–2:12 [./settings.schema.json]",
          "name string 3:3–3:19 / 3:3–3:9 [shapes]",
          "label string 4:3–4:16 / 4:3–4:10 [📐📏]",
          "port string 4:18–4:34 / 4:18–4:24 [eighty]",
          "tags array 5:3–5:25 / 5:3–5:9",
          "  0 string 5:12–5:17 / 5:12–5:17",
          "  1 string 5:19–5:24 / 5:19–5:24",
        ],
      },
    ],
    lacks: [
      { tool: "definition", args: { file: "config/settings.json", line: 4, symbol: "port" } },
      { tool: "references", args: { file: "config/settings.json", line: 4, symbol: "port" } },
    ],
    // validated against the local schema; no source on its items
    diagnostics: {
      file: "config/settings.json",
      settled: true,
      items: [
        diagnosticAt("pull", "config/settings.json", [4, 3, 4, 10], "warning", {
          message: "Property label is not allowed.",
        }),
        diagnosticAt("pull", "config/settings.json", [4, 26, 4, 34], "warning", {
          message: 'Incorrect type. Expected "integer".',
        }),
      ],
    },
  },
  {
    server: "yaml-language-server",
    lines: {
      file: "ci/probe.yaml",
      def: (n) => `${n}: 1`,
      comment: lineComment("#"),
      by: "symbols",
    },
    ready: [],
    encoding: "utf-16",
    hover: [
      {
        at: { file: "ci/pipeline.yaml", line: 9, symbol: "run" },
        includes: "The command a step runs.",
        range: range(9, 19, 9, 22),
      },
    ],
    // an alias to its anchor's node
    definition: [
      {
        at: { file: "ci/pipeline.yaml", line: 8, symbol: "defaults" },
        locs: ["ci/pipeline.yaml 4:3–5:1"],
      },
    ],
    symbols: [
      {
        file: "ci/pipeline.yaml",
        tree: [
          "name string 2:1–2:13 / 2:1–2:5 [shapes]",
          "defaults module 3:1–5:1 / 3:1–3:9",
          "  timeout number 4:3–4:14 / 4:3–4:10 [10]",
          "steps array 5:1–10:1 / 5:1–5:6",
          "  0 module 6:5–9:1 / 6:5–9:1",
          "    name string 6:5–6:16 / 6:5–6:9 [build]",
          "    run string 7:5–7:20 / 7:5–7:8 [make build]",
          "    << module 8:5–8:18 / 8:5–8:7",
          "      timeout number 4:3–4:14 / 4:3–4:10 [10]",
          "  1 module 9:5–9:49 / 9:5–9:49",
          "    name string 9:7–9:17 / 9:7–9:11 [📐📏]",
          "    run string 9:19–9:33 / 9:19–9:22 [make test]",
          "    timeout string 9:35–9:47 / 9:35–9:42 [ten]",
        ],
      },
    ],
    lacks: [
      { tool: "references", args: { file: "ci/pipeline.yaml", line: 8, symbol: "defaults" } },
    ],
    diagnostics: {
      file: "ci/pipeline.yaml",
      settled: false,
      items: [
        diagnosticAt("push", "ci/pipeline.yaml", [9, 44, 9, 47], "error", {
          code: "0",
          source: "yaml-schema: Pipeline",
          message: 'Incorrect type. Expected "integer".',
        }),
      ],
    },
  },
  {
    server: "svelte-language-server",
    lines: {
      file: "web/components/Probe.svelte",
      head: "<script>",
      tail: "</script>",
      def: (n) => `function ${n}() {}`,
      comment: blockComment("/*", "*/"),
      by: "symbols",
      use: { line: (n) => `${n}();`, tool: "hover" },
    },
    ready: [],
    encoding: "utf-16",
    hover: [
      {
        at: { file: "web/components/Badge.svelte", line: 12, symbol: "shout" },
        text: "(local function) shout(text: string): string",
        range: range(12, 25, 12, 30),
      },
    ],
    definition: [
      {
        at: { file: "web/components/Badge.svelte", line: 12, symbol: "shout" },
        locs: ["web/components/Badge.svelte 5:12–5:17"],
      },
    ],
    references: [
      {
        at: { file: "web/components/Badge.svelte", line: 12, symbol: "shout" },
        locs: ["web/components/Badge.svelte 5:12–5:17", "web/components/Badge.svelte 12:25–12:30"],
      },
    ],
    symbols: [
      {
        file: "web/components/Badge.svelte",
        tree: [
          "script field 1:1–10:10 / 1:1–10:10",
          "  label variable 3:14–3:27 / 3:14–3:27",
          "  shout function 5:3–7:4 / 5:3–7:4",
          "  count constant 9:9–9:32 / 9:9–9:32",
          "span.badge field 12:1–12:45 / 12:1–12:45",
          "p field 13:1–13:22 / 13:1–13:22",
          "style field 15:1–17:9 / 15:1–17:9",
          "  .badge class 16:3–16:32 / 16:3–16:32",
        ],
      },
    ],
    lacks: [
      {
        tool: "declaration",
        args: { file: "web/components/Badge.svelte", line: 12, symbol: "shout" },
      },
    ],
    // TypeScript's and the Svelte compiler's, by pull
    diagnostics: {
      file: "web/components/Badge.svelte",
      settled: true,
      items: [
        diagnosticAt("pull", "web/components/Badge.svelte", [9, 9, 9, 14], "error", {
          code: "2322",
          source: "ts",
          message: "Type 'string' is not assignable to type 'number'.",
        }),
        diagnosticAt("pull", "web/components/Badge.svelte", [9, 9, 9, 14], "hint", {
          code: "6133",
          source: "ts",
          message: "'count' is declared but its value is never read.",
        }),
        diagnosticAt("pull", "web/components/Badge.svelte", [13, 5, 13, 17], "error", {
          code: "2304",
          source: "ts",
          message: "Cannot find name 'missingValue'.",
        }),
        diagnosticAt("pull", "web/components/Badge.svelte", [13, 5, 13, 17], "warning", {
          code: "missing-declaration",
          source: "svelte",
          message: "'missingValue' is not defined",
        }),
      ],
    },
  },
  {
    server: "astro-ls",
    lines: {
      file: "web/pages/probe.astro",
      head: "---",
      tail: "---\n<p>probe</p>",
      def: (n) => `function ${n}() {}`,
      comment: blockComment("/*", "*/"),
      by: "symbols",
      use: { line: (n) => `${n}();`, tool: "definition" },
    },
    ready: [],
    encoding: "utf-16",
    hover: [
      {
        at: { file: "web/pages/index.astro", line: 14, symbol: "double" },
        text: "function double(n: number): number\n\nDoubles a number.",
        range: range(14, 9, 14, 15),
      },
    ],
    definition: [
      {
        at: { file: "web/pages/index.astro", line: 14, symbol: "double" },
        locs: ["web/pages/index.astro 7:10–7:16"],
      },
    ],
    references: [
      {
        at: { file: "web/pages/index.astro", line: 14, symbol: "double" },
        locs: ["web/pages/index.astro 7:10–7:16", "web/pages/index.astro 14:9–14:15"],
      },
    ],
    symbols: [
      {
        file: "web/pages/index.astro",
        tree: [
          "Props interface 2:1–4:2 / 2:11–2:16",
          "  title property 3:3–3:17 / 3:3–3:8",
          "double function 7:1–9:2 / 7:10–7:16",
          "total variable 11:7–11:29 / 11:7–11:12",
          "h1 field 14:1–14:25 / 14:1–14:25",
          "p field 15:1–15:22 / 15:1–15:22",
        ],
      },
    ],
    lacks: [
      { tool: "declaration", args: { file: "web/pages/index.astro", line: 14, symbol: "double" } },
    ],
    // by the pull it never announces; its pushes, partial under one version, merge in
    diagnostics: {
      file: "web/pages/index.astro",
      settled: true,
      pushToo: true,
      items: [
        diagnosticAt("pull", "web/pages/index.astro", [11, 7, 11, 12], "error", {
          code: "2322",
          source: "ts",
          message: "Type 'string' is not assignable to type 'number'.",
        }),
        diagnosticAt("pull", "web/pages/index.astro", [11, 7, 11, 12], "hint", {
          code: "6133",
          source: "ts",
          message: "'total' is declared but its value is never read.",
        }),
        diagnosticAt("pull", "web/pages/index.astro", [15, 5, 15, 17], "error", {
          code: "2304",
          source: "ts",
          message: "Cannot find name 'missingValue'.",
        }),
      ],
    },
  },
  {
    server: "graphql-lsp",
    lines: {
      file: "web/graphql/probe.graphql",
      name: (n) => `F${n}`,
      def: (n) => `fragment ${n} on Query { __typename }`,
      comment: lineComment("#"),
      by: "symbols",
      use: { line: (n) => `query Probe { ...${n} }`, tool: "definition" },
    },
    // its caches are built on the first open
    ready: ["warmup_open **/*.{graphql,gql}", "log_message /caches initialized/"],
    encoding: "utf-16",
    // `area` after two emoji; it answers no range
    hover: [
      {
        at: { file: "web/graphql/queries.graphql", line: 5, symbol: "area" },
        text: "Rect.area: Int!\n\nWidth times height.",
        range: null,
      },
    ],
    definition: [
      {
        at: { file: "web/graphql/queries.graphql", line: 5, symbol: "area" },
        locs: ["web/graphql/schema.graphql 7:3–8:13"],
      },
    ],
    symbols: [
      {
        file: "web/graphql/queries.graphql",
        tree: [
          "Shapes class 1:1–7:2 / 1:1–7:2",
          "  rects field 2:3–4:4 / 2:3–4:4",
          "    width field 3:5–3:10 / 3:5–3:10",
          "  rects field 5:3–5:40 / 5:3–5:40",
          "    area field 5:34–5:38 / 5:34–5:38",
          "  totalArea field 6:3–6:19 / 6:3–6:19",
          "Broken class 9:1–11:2 / 9:1–11:2",
          "  rects field 10:3–10:38 / 10:3–10:38",
          "    depth field 10:31–10:36 / 10:31–10:36",
        ],
      },
    ],
    lacks: [
      {
        tool: "references",
        args: { file: "web/graphql/queries.graphql", line: 5, symbol: "area" },
      },
    ],
    diagnostics: {
      file: "web/graphql/queries.graphql",
      settled: false,
      items: [
        diagnosticAt("push", "web/graphql/queries.graphql", [10, 31, 10, 37], "error", {
          source: "GraphQL: Validation",
          message: 'Cannot query field "depth" on type "Rect". Did you mean "width"?',
        }),
      ],
    },
  },
  {
    server: "intelephense",
    lines: {
      file: "api/src/Probe.php",
      head: "<?php",
      def: (n) => `function ${n}() {}`,
      comment: lineComment("//"),
      by: "symbols",
      use: { line: (n) => `${n}();`, tool: "definition" },
    },
    ready: ["log_message /^Indexer: Indexing finished/"],
    encoding: "utf-16",
    hover: [
      {
        at: { file: "api/index.php", line: 6, symbol: "total_area" },
        includes: "Sum of the areas of all rectangles.",
        range: range(6, 13, 6, 23),
      },
    ],
    definition: [
      {
        at: { file: "api/index.php", line: 6, symbol: "total_area" },
        locs: ["api/src/Shapes.php 20:10–20:20"],
      },
    ],
    references: [
      {
        at: { file: "api/index.php", line: 6, symbol: "total_area" },
        locs: ["api/index.php 6:13–6:23", "api/src/Shapes.php 20:10–20:20"],
      },
    ],
    symbols: [
      {
        file: "api/src/Shapes.php",
        tree: [
          "App namespace 3:1–3:15 / 3:11–3:14",
          "Rect class 5:1–17:2 / 6:7–6:11",
          "  __construct constructor 8:5–10:6 / 8:21–8:32",
          "    $width variable 8:33–8:50 / 8:44–8:50",
          "    $height variable 8:52–8:70 / 8:63–8:70",
          "  $width property 8:33–8:50 / 8:44–8:50",
          "  $height property 8:52–8:70 / 8:63–8:70",
          "  area method 12:5–16:6 / 13:21–13:25",
          "total_area function 19:1–27:2 / 20:10–20:20",
          "  $rects variable 20:21–20:33 / 20:27–20:33",
          "  $total variable 22:5–22:11 / 22:5–22:11",
          "  $r variable 23:24–23:26 / 23:24–23:26",
        ],
      },
    ],
    lacks: [
      { tool: "declaration", args: { file: "api/index.php", line: 6, symbol: "total_area" } },
    ],
    // an undefined function, known once the workspace is indexed; after two emoji
    diagnostics: {
      file: "api/broken.php",
      settled: false,
      items: [
        diagnosticAt("push", "api/broken.php", [6, 13, 6, 26], "error", {
          code: "P1010",
          source: "intelephense",
          message: "Undefined function 'App\\missing_total'.",
        }),
      ],
    },
  },
  {
    server: "postgres-language-server",
    lines: {
      file: "db/probe.sql",
      // a statement it cannot parse, one per definition: its diagnostics show the lines
      def: (n) => `selec ${n};`,
      comment: lineComment("--"),
      by: "diagnostics",
    },
    ready: [],
    encoding: "utf-32",
    // without a database it knows no types: hover answers nothing
    hover: [{ at: { file: "db/schema.sql", line: 11, symbol: "area" }, text: null, range: null }],
    lacks: [
      { tool: "definition", args: { file: "db/schema.sql", line: 11, symbol: "area" } },
      { tool: "document_symbols", args: { file: "db/schema.sql" } },
    ],
    // the statement's syntax error, by a publish carrying the document version
    diagnostics: {
      file: "db/schema.sql",
      settled: true,
      items: [
        diagnosticAt("push", "db/schema.sql", [11, 1, 11, 53], "error", {
          code: "syntax",
          source: "pg",
          message: 'Invalid statement: syntax error at or near ";"',
        }),
      ],
    },
  },
];

await languageCases(WEB);
