/**
 * A repository's tooling languages through the compiled bridge on the polyglot fixture
 * (SPEC §11): shell scripts (bash-language-server with shellcheck; `scripts/release` is
 * routed by its `#!` line), Dockerfiles (by name), TOML (taplo), CMake, Fortran (fortls) and
 * LaTeX (texlab). Each: readiness by its own signal, the read tools it offers with positions
 * in code points after astral characters, what it lacks as ServerLacksCapability, and one
 * file's diagnostics. The answers are measured (test/fixtures/README.md); each server's
 * traps are in docs/LANGUAGE-SERVERS.md.
 */
import { type LanguageCase, languageCases } from "../support/language-suite.ts";
import { lineComment } from "../support/line-probe.ts";
import { diagnosticAt, range } from "../support/real-bridge.ts";

const SC2086 = {
  code: "SC2086",
  source: "shellcheck",
  message: "Double quote to prevent globbing and word splitting.",
};

/** Instructions one of each, for the line probe: its symbols are named by the instruction. */
const DOCKER_LINES = [
  "FROM alpine",
  "RUN true",
  "CMD true",
  "ENV A=1",
  "LABEL a=b",
  "EXPOSE 80",
  "WORKDIR /x",
  "USER nobody",
  "VOLUME /v",
  "STOPSIGNAL SIGTERM",
];

const TOOLS: LanguageCase[] = [
  {
    server: "bash-language-server",
    lines: {
      file: "scripts/probe.sh",
      def: (n) => `${n}() { :; }`,
      comment: lineComment("#"),
      by: "symbols",
      use: { line: (n) => n, tool: "definition" },
    },
    // symbols of files nobody opened come from its background analysis
    ready: ["log_message /BackgroundAnalysis: Completed/"],
    encoding: "utf-16",
    // `release` has no extension: routed by its #! line; total_area after two emoji
    hover: [
      {
        at: { file: "scripts/release", line: 7, symbol: "total_area" },
        text: "Function: **total_area** - *defined in lib.sh*\n\nSum the areas of WIDTHxHEIGHT arguments.",
        range: null,
      },
    ],
    definition: [
      {
        at: { file: "scripts/release", line: 7, symbol: "total_area" },
        locs: ["scripts/lib.sh 5:1–11:2"],
      },
    ],
    references: [
      {
        at: { file: "scripts/deploy.sh", line: 7, symbol: "total_area" },
        locs: [
          "scripts/deploy.sh 7:13–7:23",
          "scripts/lib.sh 5:1–5:11",
          "scripts/release 7:12–7:22",
        ],
      },
    ],
    symbols: [
      {
        file: "scripts/lib.sh",
        tree: ["total_area function 5:1–11:2 / 5:1–11:2", "  total variable 6:9–6:16 / 6:9–6:16"],
      },
    ],
    lacks: [
      { tool: "declaration", args: { file: "scripts/deploy.sh", line: 7, symbol: "total_area" } },
    ],
    // shellcheck's, by a publish carrying the document version; after two emoji
    diagnostics: {
      file: "scripts/release",
      settled: true,
      items: [diagnosticAt("push", "scripts/release", [7, 27, 7, 35], "information", SC2086)],
    },
  },
  {
    server: "docker-langserver",
    lines: {
      file: "infra/probe/Dockerfile",
      name: (n) => DOCKER_LINES[n]?.split(" ")[0] as string,
      def: (n) => DOCKER_LINES.find((l) => l.startsWith(`${n} `)) as string,
      comment: lineComment("#"),
      by: "symbols",
    },
    ready: [],
    encoding: "utf-16",
    // the ARG's value, after two emoji
    hover: [
      {
        at: { file: "infra/Dockerfile", line: 6, symbol: "APP_VERSION" },
        text: "1.0.0",
        range: null,
      },
    ],
    definition: [
      {
        at: { file: "infra/Dockerfile", line: 6, symbol: "APP_VERSION" },
        locs: ["infra/Dockerfile 2:5–2:16"],
      },
    ],
    symbols: [
      {
        file: "infra/Dockerfile",
        tree: [
          "FROM function 1:1–1:5 / 1:1–1:5",
          "ARG function 2:1–2:4 / 2:1–2:4",
          "ENV function 3:1–3:4 / 3:1–3:4",
          "WORKDIR function 4:1–4:8 / 4:1–4:8",
          "COPY function 5:1–5:5 / 5:1–5:5",
          "RUN function 6:1–6:4 / 6:1–6:4",
          "MAINTAINER function 7:1–7:11 / 7:1–7:11",
          "EXPOSE function 8:1–8:7 / 8:1–8:7",
          "CMD function 9:1–9:4 / 9:1–9:4",
        ],
      },
    ],
    lacks: [
      { tool: "references", args: { file: "infra/Dockerfile", line: 6, symbol: "APP_VERSION" } },
    ],
    diagnostics: {
      file: "infra/Dockerfile",
      settled: false,
      items: [
        diagnosticAt("push", "infra/Dockerfile", [7, 1, 7, 11], "warning", {
          code: "45",
          source: "dockerfile-utils",
          message: "MAINTAINER has been deprecated",
        }),
        diagnosticAt("push", "infra/Dockerfile", [8, 11, 8, 15], "error", {
          code: "25",
          source: "dockerfile-utils",
          message: "Invalid proto: tcpx",
        }),
      ],
    },
  },
  {
    server: "taplo",
    lines: {
      file: "config/probe.toml",
      def: (n) => `[${n}]\na = 1`,
      comment: lineComment("#"),
      by: "symbols",
    },
    ready: [],
    encoding: "utf-16",
    // no schema (the preset turns them off): hover has nothing to say
    hover: [{ at: { file: "config/app.toml", line: 9, symbol: "name" }, text: null, range: null }],
    symbols: [
      {
        file: "config/app.toml",
        tree: [
          "title string 2:9–2:17 / 2:9–2:17",
          "server object 4:1–6:12 / 4:1–6:12",
          "  host string 5:8–5:19 / 5:8–5:19",
          "  port number 6:8–6:12 / 6:8–6:12",
          "owner object 8:1–10:19 / 8:1–10:19",
          "  name string 9:8–9:12 / 9:8–9:12",
          "  name string 10:8–10:19 / 10:8–10:19",
          "rects array 12:1–14:11 / 12:1–14:11",
          "  0 object 12:1–14:11 / 12:1–14:11",
          "    width number 13:9–13:10 / 13:9–13:10",
          "    height number 14:10–14:11 / 14:10–14:11",
        ],
      },
    ],
    lacks: [
      { tool: "definition", args: { file: "config/app.toml", line: 9, symbol: "name" } },
      { tool: "references", args: { file: "config/app.toml", line: 9, symbol: "name" } },
    ],
    // its first publish after a change is the syntax stage's, empty here: the duplicate key
    // comes in a later one (docs/LANGUAGE-SERVERS.md#taplo)
    diagnostics: {
      file: "config/app.toml",
      settled: false,
      items: [
        diagnosticAt("push", "config/app.toml", [9, 1, 9, 5], "hint", {
          source: "Even Better TOML",
          message: "conflicting keys",
          related: [
            { file: "config/app.toml", ...range(10, 1, 10, 5), message: "other key defined here" },
          ],
        }),
        diagnosticAt("push", "config/app.toml", [10, 1, 10, 5], "error", {
          source: "Even Better TOML",
          message: "conflicting keys",
          related: [
            { file: "config/app.toml", ...range(9, 1, 9, 5), message: "other key defined here" },
          ],
        }),
      ],
    },
  },
  {
    server: "cmake-language-server",
    lines: {
      file: "native/probe/CMakeLists.txt",
      // no symbols: a command its hover knows, after every mark
      name: (n) => (n === 9 ? "add_executable" : "message"),
      def: (n) => `${n}(STATUS x)`,
      comment: lineComment("#"),
      by: "none",
      use: { line: () => "", tool: "hover" },
    },
    ready: [],
    encoding: "utf-16",
    // a variable after two emoji; a command; both from `cmake --help-*`
    hover: [
      {
        at: { file: "native/CMakeLists.txt", line: 6, symbol: "CMAKE_SOURCE_DIR" },
        text: "The path to the top level of the source tree.",
        range: range(6, 20, 6, 36),
      },
      {
        at: { file: "native/CMakeLists.txt", line: 7, symbol: "add_executable" },
        includes: "add_executable(<name> [WIN32] [MACOSX_BUNDLE]",
        range: range(7, 1, 7, 15),
      },
    ],
    lacks: [
      {
        tool: "definition",
        args: { file: "native/CMakeLists.txt", line: 7, symbol: "SHAPES_SOURCES" },
      },
      {
        tool: "references",
        args: { file: "native/CMakeLists.txt", line: 7, symbol: "SHAPES_SOURCES" },
      },
      { tool: "document_symbols", args: { file: "native/CMakeLists.txt" } },
    ],
  },
  {
    server: "fortls",
    lines: {
      file: "native/probe.f90",
      def: (n) => `subroutine ${n}()\nend subroutine ${n}`,
      comment: lineComment("!"),
      by: "symbols",
    },
    ready: [],
    // the preset's: it counts code points and announces nothing
    encoding: "utf-32",
    hover: [
      {
        at: { file: "native/main.f90", line: 7, symbol: "area" },
        text: "FUNCTION area(r) RESULT(area)\n TYPE(rect), INTENT(IN) :: r\n INTEGER :: area\n-----\nWidth times height.",
        range: null,
      },
    ],
    definition: [
      {
        at: { file: "native/main.f90", line: 7, symbol: "area" },
        locs: ["native/geometry.f90 13:20–13:24"],
      },
    ],
    references: [
      {
        at: { file: "native/main.f90", line: 7, symbol: "area" },
        locs: [
          "native/geometry.f90 13:20–13:24",
          "native/geometry.f90 16:16–16:20",
          "native/main.f90 7:18–7:22",
        ],
      },
    ],
    symbols: [
      {
        file: "native/geometry.f90",
        tree: [
          "geometry module 1:1–18:1 / 1:1–18:1",
          "  rect class 5:1–8:1 / 5:1–8:1",
          "    width variable 6:1–6:1 / 6:1–6:1",
          "    height variable 7:1–7:1 / 7:1–7:1",
          "  area function 13:1–16:1 / 13:1–16:1",
        ],
      },
    ],
    lacks: [{ tool: "declaration", args: { file: "native/main.f90", line: 7, symbol: "area" } }],
    // no source on its items
    diagnostics: {
      file: "native/main.f90",
      settled: false,
      items: [
        diagnosticAt("push", "native/main.f90", [3, 7, 3, 21], "information", {
          message: 'Module "missing_module" not found in project',
        }),
      ],
    },
  },
  {
    server: "texlab",
    lines: {
      file: "docs/probe.tex",
      def: (n) => `\\section{${n}}\\label{${n}}`,
      comment: lineComment("%"),
      by: "none",
      use: { line: (n) => `see \\ref{${n}}`, tool: "definition" },
    },
    ready: [],
    encoding: "utf-16",
    hover: [
      {
        at: { file: "docs/paper.tex", line: 16, symbol: "sec:totals" },
        text: "Section (Totals 📐📏)",
        range: range(16, 51, 16, 61),
      },
    ],
    definition: [
      {
        at: { file: "docs/paper.tex", line: 16, symbol: "sec:totals" },
        locs: ["docs/paper.tex 14:8–14:18"],
      },
    ],
    references: [
      {
        at: { file: "docs/paper.tex", line: 9, symbol: "sec:shapes" },
        locs: ["docs/paper.tex 9:8–9:18", "docs/paper.tex 16:26–16:36"],
      },
    ],
    symbols: [
      {
        file: "docs/paper.tex",
        tree: [
          "Shapes module 8:1–11:37 / 9:1–9:19 [sec:shapes]",
          "Totals 📐📏 module 13:1–16:85 / 14:1–14:19 [sec:totals]",
        ],
      },
    ],
    lacks: [
      { tool: "declaration", args: { file: "docs/paper.tex", line: 16, symbol: "sec:totals" } },
    ],
    diagnostics: {
      file: "docs/paper.tex",
      settled: false,
      items: [
        diagnosticAt("push", "docs/paper.tex", [19, 1, 19, 1], "error", {
          code: "2",
          source: "texlab",
          message: 'Missing "}" inserted',
        }),
      ],
    },
  },
];

await languageCases(TOOLS);
