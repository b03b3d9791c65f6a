/**
 * Alternatives for languages already served, through the compiled bridge (SPEC §11): ruff
 * (Python diagnostics only), basedpyright, ty and pylsp on the polyglot fixture's Python
 * service, ccls on the C fixtures. Each: readiness by its own signal, positions in code
 * points after astral characters (ty and ruff negotiate UTF-8, pylsp and ccls count code
 * points and announce nothing), what it lacks as ServerLacksCapability, and one file's
 * diagnostics. The answers are measured (test/fixtures/README.md); each server's traps are
 * in docs/LANGUAGE-SERVERS.md.
 */
import { type LanguageCase, languageCases } from "../support/language-suite.ts";
import { blockComment, lineComment, PYTHON_PROBE } from "../support/line-probe.ts";
import { diagnosticAt, range } from "../support/real-bridge.ts";

const APP = "service/app.py";
const AT_TOTAL_AREA = { file: APP, line: 6, symbol: "total_area" };
const TOTAL_AREA_REFS = [
  "service/app.py 3:36–3:46",
  "service/app.py 6:13–6:23",
  "service/geometry.py 16:5–16:15",
];

const ALTERNATIVES: LanguageCase[] = [
  {
    server: "ruff",
    lines: {
      file: "service/probe.py",
      // an unused import per definition: its diagnostics show the lines
      def: (n) => `import ${n}`,
      comment: lineComment("#"),
      by: "diagnostics",
    },
    ready: [],
    encoding: "utf-8",
    // its lint, by pull; `missing_name` after two emoji
    diagnostics: {
      file: APP,
      settled: true,
      items: [
        diagnosticAt("pull", APP, [1, 8, 1, 10], "warning", {
          code: "F401",
          source: "Ruff",
          message: "`os` imported but unused\n\nhelp: Remove unused import: `os`",
        }),
        diagnosticAt("pull", APP, [8, 13, 8, 25], "error", {
          code: "F821",
          source: "Ruff",
          message: "Undefined name `missing_name`",
        }),
      ],
    },
  },
  {
    server: "ty",
    lines: PYTHON_PROBE,
    ready: [],
    encoding: "utf-8",
    hover: [
      {
        at: AT_TOTAL_AREA,
        text: "def total_area(rects: list[Rect]) -> int\n---\nSum of the areas of all rectangles.",
        range: range(6, 13, 6, 23),
      },
    ],
    definition: [{ at: AT_TOTAL_AREA, locs: ["service/geometry.py 16:5–16:15"] }],
    references: [{ at: AT_TOTAL_AREA, locs: TOTAL_AREA_REFS }],
    symbols: [
      {
        file: "service/geometry.py",
        tree: [
          "Rect class 4:1–13:40 / 4:7–4:11",
          "  __init__ constructor 7:5–9:29 / 7:9–7:17",
          "  area method 11:5–13:40 / 11:9–11:13",
          "total_area function 16:1–18:40 / 16:5–16:15",
        ],
      },
    ],
    diagnostics: {
      file: APP,
      settled: true,
      items: [
        {
          ...diagnosticAt("pull", APP, [7, 14, 7, 21], "error", {
            code: "invalid-assignment",
            source: "ty",
            message:
              'Object of type `Literal["three"]` is not assignable to `int`: Incompatible value of type `Literal["three"]`',
          }),
          related: [{ file: APP, ...range(7, 8, 7, 11), message: "Declared type" }],
          channels: ["pull"],
        },
        diagnosticAt("pull", APP, [8, 13, 8, 25], "error", {
          code: "unresolved-reference",
          source: "ty",
          message: "Name `missing_name` used when not defined",
        }),
      ],
    },
  },
  {
    server: "basedpyright",
    lines: PYTHON_PROBE,
    ready: ["log_message /Found \\d+ source file/"],
    encoding: "utf-16",
    hover: [
      {
        at: AT_TOTAL_AREA,
        text: "(function) def total_area(rects: list[Rect]) -> int\n---\nSum of the areas of all rectangles.",
        range: range(6, 13, 6, 23),
      },
    ],
    definition: [{ at: AT_TOTAL_AREA, locs: ["service/geometry.py 16:5–16:15"] }],
    references: [{ at: AT_TOTAL_AREA, locs: TOTAL_AREA_REFS }],
    diagnostics: {
      file: APP,
      settled: true,
      items: [
        diagnosticAt("pull", APP, [1, 8, 1, 10], "warning", {
          code: "reportUnusedImport",
          source: "basedpyright",
          message: 'Import "os" is not accessed',
        }),
        diagnosticAt("pull", APP, [7, 14, 7, 21], "error", {
          code: "reportAssignmentType",
          source: "basedpyright",
          message:
            'Type "Literal[\'three\']" is not assignable to declared type "int"\n\u00a0\u00a0"Literal[\'three\']" is not assignable to "int"',
        }),
        diagnosticAt("pull", APP, [8, 13, 8, 25], "error", {
          code: "reportUndefinedVariable",
          source: "basedpyright",
          message: '"missing_name" is not defined',
        }),
        diagnosticAt("pull", APP, [8, 13, 8, 25], "warning", {
          code: "reportUnknownArgumentType",
          source: "basedpyright",
          message:
            'Argument type is unknown\n\u00a0\u00a0Argument corresponds to parameter "values" in function "print"',
        }),
      ],
    },
  },
  {
    server: "pylsp",
    // its hover is not right past some of them (docs/LANGUAGE-SERVERS.md#the-servers-lines)
    lines: PYTHON_PROBE,
    ready: [],
    // the preset's: jedi counts code points and pylsp announces nothing
    encoding: "utf-32",
    hover: [
      {
        at: AT_TOTAL_AREA,
        text: "total_area(rects: list[Rect]) -> int\n\n\nSum of the areas of all rectangles.",
        range: null,
      },
    ],
    definition: [{ at: AT_TOTAL_AREA, locs: ["service/geometry.py 16:5–16:15"] }],
    references: [{ at: AT_TOTAL_AREA, locs: TOTAL_AREA_REFS }],
    lacks: [{ tool: "declaration", args: AT_TOTAL_AREA }],
    // pyflakes counts its columns in UTF-8 bytes: after two emoji `missing_name` is at code
    // point 13, reported at 19 (docs/LANGUAGE-SERVERS.md#pylsp)
    diagnostics: {
      file: APP,
      settled: false,
      items: [
        diagnosticAt("push", APP, [1, 1, 1, 11], "warning", {
          source: "pyflakes",
          message: "'os' imported but unused",
        }),
        diagnosticAt("push", APP, [8, 19, 8, 27], "error", {
          source: "pyflakes",
          message: "undefined name 'missing_name'",
        }),
      ],
    },
  },
  {
    server: "ccls",
    lines: {
      // a source, not a header: ccls indexes no new header opened while it indexes
      // (docs/LANGUAGE-SERVERS.md#ccls)
      file: "probe.c",
      def: (n) => `int ${n}(void) { return 0; }`,
      comment: blockComment("/*", "*/"),
      by: "symbols",
    },
    fixture: "c",
    // nothing says the index of the three files is complete: polled (a stated limit,
    // docs/LANGUAGE-SERVERS.md#ccls)
    ready: [],
    indexed: { at: { file: "main.c", line: 6, symbol: "manhattan" }, count: 3 },
    encoding: "utf-32",
    hover: [
      {
        at: { file: "main.c", line: 6, symbol: "manhattan" },
        text: "📐📏 distance\n\nint manhattan(struct point a, struct point b)",
        range: range(6, 29, 6, 38),
      },
    ],
    definition: [
      { at: { file: "main.c", line: 6, symbol: "manhattan" }, locs: ["util.c 5:5–5:14"] },
    ],
    references: [
      {
        at: { file: "main.c", line: 6, symbol: "manhattan" },
        locs: ["geometry.h 10:23–10:32", "main.c 6:29–6:38", "util.c 5:5–5:14"],
      },
    ],
    symbols: [
      {
        file: "geometry.h",
        tree: [
          "GEOMETRY_H unknown 2:9–2:19 / 2:9–2:19 [GEOMETRY_H]",
          "point struct 5:1–8:2 / 5:8–5:13 [struct point {}]",
          "  x field 6:3–6:8 / 6:7–6:8 [int point::x]",
          "  y field 7:3–7:8 / 7:7–7:8 [int point::y]",
          "manhattan function 10:19–10:64 / 10:23–10:32 [int manhattan(struct point a, struct point b)]",
        ],
      },
    ],
  },
  {
    server: "ccls",
    fixture: "c-errors",
    ready: [],
    encoding: "utf-32",
    // clang's notes arrive as related information; `cuont` after two emoji
    diagnostics: {
      file: "broken.c",
      settled: false,
      items: [
        {
          ...diagnosticAt("push", "broken.c", [7, 24, 7, 29], "error", {
            code: "2",
            source: "ccls",
            message: "use of undeclared identifier 'cuont'; did you mean 'count'?",
          }),
          related: [{ file: "broken.c", ...range(6, 7, 6, 12), message: "'count' declared here" }],
          channels: ["push"],
        },
        diagnosticAt("push", "broken.c", [11, 13, 11, 17], "error", {
          code: "2",
          source: "ccls",
          message: "no member named 'size' in 'struct counter'",
        }),
      ],
    },
  },
];

await languageCases(ALTERNATIVES);
