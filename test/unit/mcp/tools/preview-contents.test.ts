/** `diagnostics {contents}`'s checks before any server is asked (SPEC §6.2). */
import { expect, test } from "bun:test";
import { contentsWith, tooManyOpen } from "../../../../src/mcp/tools/contents-errors.ts";
import {
  checkOnce,
  checkSizes,
  MAX_CONTENTS_BYTES,
} from "../../../../src/mcp/tools/preview-contents.ts";
import { thrown } from "../../../support/thrown.ts";

test("each text within max_file_bytes, counted in UTF-8 bytes", () => {
  expect(() => checkSizes([{ file: "a", text: "é".repeat(5) }], 10)).not.toThrow();
  const err = thrown(() => checkSizes([{ file: "a", text: "é".repeat(6) }], 10));
  expect(err.code).toBe("FileTooLarge");
  expect(err.details).toEqual({ bytes: 12, max_bytes: 10 });
});

test("all texts together within the MCP message limit", () => {
  const half = "x".repeat(MAX_CONTENTS_BYTES / 2);
  const two = [
    { file: "a", text: half },
    { file: "b", text: half },
  ];
  expect(() => checkSizes(two, MAX_CONTENTS_BYTES)).not.toThrow();
  const err = thrown(() => checkSizes([...two, { file: "c", text: "x" }], MAX_CONTENTS_BYTES));
  expect(err.code).toBe("FileTooLarge");
  expect(err.details).toEqual({ bytes: MAX_CONTENTS_BYTES + 1, max_bytes: MAX_CONTENTS_BYTES });
  expect(err.hint).toContain("fewer");
});

test("a file named twice, however spelled, is InvalidArgument naming both entries", () => {
  const contents = [
    { file: "a.ts", text: "" },
    { file: "b.ts", text: "" },
    { file: "./a.ts", text: "" },
  ];
  expect(() => checkOnce(contents.slice(0, 2), ["a.ts", "b.ts"])).not.toThrow();
  const err = thrown(() => checkOnce(contents, ["a.ts", "b.ts", "a.ts"]));
  expect(err.code).toBe("InvalidArgument");
  expect(err.details).toEqual({ file: "a.ts", entries: ["a.ts", "./a.ts"] });
});

test("the other refusals carry a hint and details", () => {
  for (const err of [contentsWith("since"), tooManyOpen(20, 8)]) {
    expect(err.code).toBe("InvalidArgument");
    expect(err.hint).not.toBe("");
  }
  expect(tooManyOpen(20, 8).details).toEqual({ count: 20, max_open_documents: 8 });
});
