/**
 * A text's lines as the client counts them with the server's beside them (SPEC §5): one
 * table when they are the same, the line starts shared when only a line's end differs, a
 * second table when a character breaks a line in one model only.
 */
import { expect, test } from "bun:test";
import { LineIndex } from "../../../src/text/line-index.ts";
import { LSP_LINES, lineModel } from "../../../src/text/line-model.ts";
import { BYTES_PER_LINE } from "../../../src/text/line-starts.ts";

const LF = lineModel(["lf"]);
const TSSERVER = lineModel(["cr", "lf", "crlf", "u2028", "u2029"]);

test("LSP's model, or a text with nothing the models count differently: one table", () => {
  const lsp = new LineIndex("a\rb\r\nc");
  expect(lsp.server).toBe(lsp);
  // LF alone: a view over the same starts (where a CR LF line ends differs, not where lines start)
  const plain = new LineIndex("a\nb\u0085c", LF);
  expect(plain.sameLines).toBe(true);
  expect(plain.tableBytes).toBe(plain.lineCount * BYTES_PER_LINE);
  const ts = new LineIndex("a\r\nb\rc", TSSERVER);
  expect(ts.server).toBe(ts);
});

test("CR LF for a server of LF alone: the starts shared, its lines end after the CR", () => {
  const index = new LineIndex("ab\r\ncd\n", LF);
  expect(index.server).not.toBe(index);
  expect(index.sameLines).toBe(true);
  expect(index.lineText(0)).toBe("ab");
  expect(index.server.lineText(0)).toBe("ab\r");
  expect(index.server.lineCount).toBe(3);
  expect(index.tableBytes).toBe(index.lineCount * BYTES_PER_LINE);
});

test("a lone CR for a server of LF alone: its own lines", () => {
  const index = new LineIndex("one\rtwo\nthree", LF);
  expect(index.sameLines).toBe(false);
  expect([0, 1, 2].map((l) => index.lineText(l))).toEqual(["one", "two", "three"]);
  expect([0, 1].map((l) => index.server.lineText(l))).toEqual(["one\rtwo", "three"]);
  expect(index.server.server).toBe(index.server);
  expect(index.server.model).toBe(LF);
  expect(index.model).toBe(LSP_LINES);
  expect(index.tableBytes).toBe((3 + 2) * BYTES_PER_LINE);
});

test("U+2028 for tsserver: one more line on its side, none on the client's", () => {
  const index = new LineIndex("/* a\u2028b */ x", TSSERVER);
  expect(index.lineCount).toBe(1);
  expect(index.server.lineCount).toBe(2);
  expect(index.server.lineText(1)).toBe("b */ x");
  expect(index.lineOf(6)).toBe(0);
  expect(index.server.lineOf(6)).toBe(1);
});

test("every terminator, no final newline: lines and ends in the client's model", () => {
  const text = "a\rb\nc\r\nd\u2028e\u0085f\u000bg\u000ch😀";
  const index = new LineIndex(text);
  expect(index.lineCount).toBe(4);
  expect([0, 1, 2, 3].map((l) => [index.lineStart(l), index.lineEnd(l)])).toEqual([
    [0, 1],
    [2, 3],
    [4, 5],
    [7, text.length],
  ]);
  expect(() => index.lineEnd(4)).toThrow(RangeError);
});

test("a server that reads at LF alone and answers in LSP's lines (clangd): three views, two tables", () => {
  const index = new LineIndex("a\rb\nc", LF, LSP_LINES);
  expect(index.sameLines).toBe(false);
  expect(index.answers).toBe(index);
  expect(index.sameAnswerLines).toBe(true);
  expect(index.server.lineCount).toBe(2);
  // answers in tsserver's lines over a text of LF only: one table for everything
  const plain = new LineIndex("a\nb", LF, TSSERVER);
  expect(plain.sameAnswerLines).toBe(true);
  expect(plain.answers).toBe(plain);
});

test("the same text's index with other answer lines shares every table it can", () => {
  const index = new LineIndex("a\rb\nc", LF, LSP_LINES);
  // a rename's edits are in the lines the server reads
  const reads = index.withAnswers(LF);
  expect(reads.answers).toBe(index.server);
  expect(reads.server).toBe(index.server);
  expect(reads.lineCount).toBe(index.lineCount);
  expect(reads.tableBytes).toBe(index.tableBytes);
  expect(index.withAnswers(LSP_LINES)).toBe(index);
  // a model neither had: counted once, the client's starts shared
  const ts = index.withAnswers(TSSERVER);
  expect(ts.answers.lineCount).toBe(3);
  expect(ts.server).toBe(index.server);
});
