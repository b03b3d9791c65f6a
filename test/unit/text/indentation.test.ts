import { describe, expect, test } from "bun:test";
import { indentationOf } from "../../../src/text/indentation.ts";

describe("indentationOf: the options a formatter gets follow the file", () => {
  test.each([
    ["two spaces", "function f() {\n  return 1;\n}\n", { tabSize: 2, insertSpaces: true }],
    ["four spaces", "def f():\n    return 1\n", { tabSize: 4, insertSpaces: true }],
    ["tabs", "func f() {\n\treturn\n}\n", { tabSize: 4, insertSpaces: false }],
    ["no indented line", "a\nb\n", { tabSize: 4, insertSpaces: true }],
    ["empty", "", { tabSize: 4, insertSpaces: true }],
    // a doc comment's ` * ` continuation is no indentation level
    [
      "JSDoc first",
      "/**\n * doc\n */\nclass A {\n  x = 1;\n}\n",
      { tabSize: 2, insertSpaces: true },
    ],
    // a line indented below an indented one is deeper than one level
    ["blank lines skipped", "a {\n\n   \n    b\n}\n", { tabSize: 4, insertSpaces: true }],
    ["CRLF", "a {\r\n  b\r\n}\r\n", { tabSize: 2, insertSpaces: true }],
    ["first indentation a tab, later spaces", "a\n\tb\n  c\n", { tabSize: 4, insertSpaces: false }],
    ["very deep", `a\n${" ".repeat(40)}b\n`, { tabSize: 16, insertSpaces: true }],
  ])("%s", (_name, text, expected) => {
    expect(indentationOf(text)).toEqual(expected);
  });
});
