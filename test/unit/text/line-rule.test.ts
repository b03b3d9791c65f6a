/**
 * The one rule for which lines a server counts a position in (SPEC §5, text/line-rule.ts):
 * per message and file, from the presets' data; positions that may count in either model
 * taken only where both agree; a whole-document change's range where the old text's lines
 * are not LSP's.
 */
import { describe, expect, test } from "bun:test";
import { inReadLines, planWrites, writtenParts } from "../../../src/apply/validate.ts";
import { DEFAULT_EDIT_LINES } from "../../../src/config/schema.ts";
import { BridgeError } from "../../../src/errors.ts";
import { LineIndex } from "../../../src/text/line-index.ts";
import { type LineModel, LSP_LINES, lineModel } from "../../../src/text/line-model.ts";
import {
  type LineMessage,
  linesFor,
  PositionReader,
  renameMessage,
  type ServerLines,
  wholeChangeRange,
} from "../../../src/text/line-rule.ts";
import type { LspPosition, LspRange } from "../../../src/text/positions.ts";
import { sha256Hex } from "../../../src/workspace/files.ts";

const LF = lineModel(["lf"]);
const TSSERVER = lineModel(["cr", "lf", "crlf", "u2028", "u2029"]);

/** The presets' data, as sessions build it (context.ts). */
const SERVERS: Record<string, ServerLines> = {
  lsp: { read: LSP_LINES, answer: LSP_LINES, edits: DEFAULT_EDIT_LINES },
  clangd: {
    read: LF,
    answer: LSP_LINES,
    edits: { rename: "read", rename_others: "answer", code_action: "either" },
  },
  gopls: { read: LF, answer: LF, edits: DEFAULT_EDIT_LINES },
  tsserver: { read: TSSERVER, answer: TSSERVER, edits: DEFAULT_EDIT_LINES },
  // `either` over one model is that model
  same: { read: LF, answer: LF, edits: { ...DEFAULT_EDIT_LINES, code_action: "either" } },
};

const MESSAGES: LineMessage[] = ["request", "answer", "rename", "rename_others", "code_action"];

describe("linesFor: the models of each message, per server", () => {
  const table: Record<string, string[]> = {
    // request, answer, rename (file asked), rename (others), code action
    lsp: ["cr,lf,crlf", "cr,lf,crlf", "cr,lf,crlf", "cr,lf,crlf", "cr,lf,crlf"],
    clangd: ["lf", "cr,lf,crlf", "lf", "cr,lf,crlf", "lf | cr,lf,crlf"],
    gopls: ["lf", "lf", "lf", "lf", "lf"],
    tsserver: [
      "cr,lf,crlf,u2028,u2029",
      "cr,lf,crlf,u2028,u2029",
      "cr,lf,crlf,u2028,u2029",
      "cr,lf,crlf,u2028,u2029",
      "cr,lf,crlf,u2028,u2029",
    ],
    same: ["lf", "lf", "lf", "lf", "lf"],
  };
  for (const [name, expected] of Object.entries(table)) {
    test(name, () => {
      const server = SERVERS[name] as ServerLines;
      const got = MESSAGES.map((m) =>
        linesFor(server, m)
          .map((x) => x.key)
          .join(" | "),
      );
      expect(got).toEqual(expected);
    });
  }

  test("a rename's edits: the file asked about, or another", () => {
    expect(renameMessage("/ws/a.c", "/ws/a.c")).toBe("rename");
    expect(renameMessage("/ws/b.c", "/ws/a.c")).toBe("rename_others");
    expect(renameMessage(null, "/ws/a.c")).toBe("rename_others");
  });
});

const at = (line: number, character: number): LspPosition => ({ line, character });

describe("PositionReader: a position in either model only where both agree", () => {
  // a lone CR on line 0: LF lines and the compiler's differ from there on
  const text = "#include <x> /* a\r b */\nFoo x;\n";
  const either = new PositionReader(text, [LF, LSP_LINES]);
  const cases: [string, LspPosition, number | undefined | "ambiguous"][] = [
    ["before the CR, in both", at(0, 3), 3],
    [
      "line 1 after the CR: LF's next line, the compiler's rest of the comment",
      at(1, 0),
      "ambiguous",
    ],
    ["line 2: LF's empty last line, the compiler's `Foo x;`", at(2, 0), "ambiguous"],
    ["line 3: past LF's lines, the compiler's empty last line", at(3, 0), "ambiguous"],
    ["past both", at(9, 0), undefined],
  ];
  for (const [what, pos, expected] of cases) {
    test(what, () => expect(either.offset(pos, "utf-16")).toBe(expected));
  }

  test("one model: its offset", () => {
    expect(new PositionReader(text, [LF]).offset(at(1, 0), "utf-16")).toBe(24);
    expect(new PositionReader(text, [LSP_LINES]).offset(at(1, 0), "utf-16")).toBe(18);
  });
});

describe("edits that may count in either model", () => {
  const text = "#include <x> /* a\r b */\nFoo x;\n";
  const insert = (line: number) => [
    { range: { start: at(line, 0), end: at(line, 0) }, newText: "#include <y>\n" },
  ];
  const snapshot = { abs: "/ws/a.cpp", text, sha256: sha256Hex(text) };

  function refusal(fn: () => unknown): string {
    try {
      fn();
    } catch (err) {
      expect(err).toBeInstanceOf(BridgeError);
      expect((err as BridgeError).code).toBe("EditInvalid");
      return (err as BridgeError).message;
    }
    throw new Error("expected EditInvalid");
  }

  test("written where both put them; refused where they differ, nothing planned", () => {
    const [plan] = planWrites([{ snapshot, edits: insert(0) }], "utf-16", [LF, LSP_LINES]);
    const parts = writtenParts(Buffer.from(text), plan?.pieces ?? []);
    expect(Buffer.concat(parts).toString("utf8")).toBe(`#include <y>\n${text}`);
    expect(
      refusal(() => planWrites([{ snapshot, edits: insert(1) }], "utf-16", [LF, LSP_LINES])),
    ).toContain("different places in the server's two line models ([lf] and [cr,lf,crlf])");
  });

  test("inReadLines: an answer model's edit in the read lines; ambiguous ones refused", () => {
    // b.c's use after a lone CR: line 2 in the compiler's lines is line 1 at LF
    const b = "/* x\r y */\nint a(void) { return foo(); }\n";
    const edit = (range: LspRange) => ({ range, newText: "bar" });
    const got = inReadLines(
      "b.c",
      b,
      [edit({ start: at(2, 21), end: at(2, 24) })],
      [LSP_LINES],
      LF,
      "utf-16",
    );
    expect(got.map((e) => e.range)).toEqual([{ start: at(1, 21), end: at(1, 24) }]);
    // in the read lines already: the same objects back
    const same = [edit({ start: at(1, 21), end: at(1, 24) })];
    expect(inReadLines("b.c", b, same, [LF], LF, "utf-16")).toBe(same);
    expect(refusal(() => inReadLines("b.c", b, same, [LF, LSP_LINES], LF, "utf-16"))).toContain(
      "b.c",
    );
    expect(
      refusal(() =>
        inReadLines(
          "b.c",
          b,
          [edit({ start: at(7, 0), end: at(7, 0) })],
          [LSP_LINES],
          LF,
          "utf-16",
        ),
      ),
    ).toContain("outside the file");
  });
});

describe("wholeChangeRange: a change of the whole text, and its range", () => {
  const cases: [string, string, LineModel, boolean, LspRange | undefined][] = [
    ["LSP's lines: the text alone", "a\u2028b\n", LSP_LINES, true, undefined],
    ["the same lines in both models", "a\nb\r\nc", TSSERVER, true, undefined],
    ["a server taking whole texts only", "a\u2028b\n", TSSERVER, false, undefined],
    [
      "U+2028 for tsserver: the end in its lines",
      "/* a\u2028b */\nf();",
      TSSERVER,
      true,
      { start: at(0, 0), end: at(2, 4) },
    ],
    [
      "a lone CR at LF: the end in LF lines",
      "/* a\rb */\nf();\n",
      LF,
      true,
      { start: at(0, 0), end: at(2, 0) },
    ],
  ];
  for (const [what, text, model, ranged, expected] of cases) {
    test(what, () => {
      expect(wholeChangeRange(new LineIndex(text, model), "utf-16", ranged)).toEqual(expected);
    });
  }

  test("columns in the server's encoding", () => {
    const old = new LineIndex("/*\u2028é𝄞", TSSERVER);
    expect(wholeChangeRange(old, "utf-8", true)?.end).toEqual(at(1, 6));
    expect(wholeChangeRange(old, "utf-16", true)?.end).toEqual(at(1, 3));
  });
});
