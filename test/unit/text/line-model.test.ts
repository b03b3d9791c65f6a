/**
 * Where each line model breaks lines (SPEC §5, the line model), terminator by terminator,
 * and when a text's lines are the same as LSP's, so one table serves client and server.
 */
import { describe, expect, test } from "bun:test";
import { LINE_TERMINATORS } from "../../../src/config/schema.ts";
import { contentEnd, LSP_LINES, lineModel, sameLineStarts } from "../../../src/text/line-model.ts";
import { lineStartsOf } from "../../../src/text/line-starts.ts";
import { expectAt } from "../../support/expect-where.ts";
import { ALL_TERMINATORS, oracleLines } from "../../support/line-oracle.ts";
import { Prng } from "../../support/prng.ts";

const LF = lineModel(["lf"]);
const LF_CRLF = lineModel(["lf", "crlf"]);
const CR_LF = lineModel(["cr", "lf"]);
const TSSERVER = lineModel(["cr", "lf", "crlf", "u2028", "u2029"]);
const EVERY = lineModel(LINE_TERMINATORS);
const MODELS = { LSP: LSP_LINES, LF, LF_CRLF, CR_LF, TSSERVER, EVERY };

// one of each terminator between letters, no final newline, an astral character
const MIXED = "a\rb\nc\r\nd\u2028e\u2029f\u0085g\u000bh\u000ci😀j";

describe("lineModel", () => {
  test("names in one order, LF always among them, equal models equal keys", () => {
    expect(LSP_LINES.names).toEqual(["cr", "lf", "crlf"]);
    expect(lineModel(["crlf", "lf", "cr"]).key).toBe(LSP_LINES.key);
    expect(lineModel([]).names).toEqual(["lf"]);
    expect(TSSERVER.key).toBe("cr,lf,crlf,u2028,u2029");
    expect(LSP_LINES.differs).toBeNull();
  });

  test("each terminator breaks a line only in the models that name it", () => {
    const starts = (model: keyof typeof MODELS) => [...lineStartsOf(MIXED, MODELS[model])];
    //                          a\r b\n c\r\n d\u2028 e\u2029 f\u0085 g\v h\f i😀j
    expect(starts("LSP")).toEqual([0, 2, 4, 7]);
    expect(starts("LF")).toEqual([0, 4, 7]);
    expect(starts("LF_CRLF")).toEqual([0, 4, 7]);
    expect(starts("CR_LF")).toEqual([0, 2, 4, 6, 7]);
    expect(starts("TSSERVER")).toEqual([0, 2, 4, 7, 9, 11]);
    expect(starts("EVERY")).toEqual([0, 2, 4, 7, 9, 11, 13, 15, 17]);
  });

  test("a line's content ends before its terminator: CR LF is two characters where it is one", () => {
    // "x\r\ny": the second line starts at 3
    expect(contentEnd("x\r\ny", 3, LSP_LINES)).toBe(1);
    expect(contentEnd("x\r\ny", 3, LF_CRLF)).toBe(1);
    // LF alone: the CR is the line's last character
    expect(contentEnd("x\r\ny", 3, LF)).toBe(2);
    // CR and LF apart: an empty line between them
    expect(contentEnd("x\r\ny", 3, CR_LF)).toBe(2);
  });

  test("a text's lines are LSP's unless it holds a character the model counts otherwise", () => {
    const cases: [string, keyof typeof MODELS, boolean][] = [
      ["a\nb\r\nc", "LF", true],
      ["a\rb", "LF", false],
      ["a\r", "LF", false],
      ["a\r\n", "LF_CRLF", true],
      ["a\r\nb", "CR_LF", false],
      ["a\rb", "CR_LF", true],
      ["a\u2028b", "TSSERVER", false],
      ["a\u2029b", "TSSERVER", false],
      ["a\u0085b\u000bc\u000cd", "TSSERVER", true],
      ["a\u0085b", "EVERY", false],
      ["a\u000bb", "EVERY", false],
      ["a\u000cb", "EVERY", false],
      ["a\u001cb\u001dc\u001ed", "EVERY", false],
      ["a\u001cb\u001dc\u001ed", "TSSERVER", true],
      ["a\rb\u2028c", "LSP", true],
    ];
    for (const [text, model, same] of cases) {
      expectAt({ text, model }, sameLineStarts(text, MODELS[model]), same);
    }
  });

  test("random texts of every terminator: the starts are the oracle's in every model", () => {
    const rand = new Prng(0x11e5);
    const pieces = [...ALL_TERMINATORS, "a", "é", "中", "😀", "\r", "\n"];
    for (let i = 0; i < 500; i++) {
      let text = "";
      for (let n = rand.int(0, 30); n > 0; n--) text += rand.pick(pieces);
      for (const [name, model] of Object.entries(MODELS)) {
        const want = oracleLines(text, model.names).starts;
        expectAt({ text, name }, [...lineStartsOf(text, model)], want);
        const same =
          JSON.stringify(want) === JSON.stringify(oracleLines(text, LSP_LINES.names).starts);
        expectAt({ text, name }, sameLineStarts(text, model), same);
      }
    }
  });
});
