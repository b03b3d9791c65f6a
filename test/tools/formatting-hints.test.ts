/**
 * inlay_hints, formatting and formatting_apply (SPEC §4.1, §7.3) against canned fake results,
 * through the compiled bridge: exact answers and the requests the server got (the whole
 * file's range, the lines asked, options from the file's indentation); a server without the
 * method → ServerLacksCapability; malformed answers → no hints, or EditInvalid; oversized →
 * ResultTooLarge; and formatting_apply's write protocol: the edit_set check, the rule that
 * a formatting writes only white space (a hostile server's code refused, nothing written),
 * and the apply class's gate.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bridgeFor, FakeProbe, workspace } from "../fake-server/harness.ts";
import { type BridgeHandle, closeBridgesAndTempDirs } from "../support/bridge.ts";
import { edit, r } from "../support/normalize-context.ts";
import { tempDir } from "../support/temp-dirs.ts";

const OK = "fn main(){\n  let x=1;\n}\n";
const FORMATTED = "fn main() {\n    let x = 1;\n}\n";
const EVIL = "fn main() {}\n";
const ws = workspace({ "ok.fake": OK, "evil.evil": EVIL, "none.none": "x\n", "odd.odd": "y\n" });

// what a formatter makes of OK, as minimal edits in the server's order
const FORMAT_EDITS = [
  edit(1, 8, 1, 8, " "),
  edit(0, 9, 0, 9, " "),
  edit(1, 0, 1, 2, "    "),
  edit(1, 7, 1, 7, " "),
];
const HINTS = [
  { position: { line: 1, character: 7 }, label: ": i32", kind: 1, paddingLeft: true },
  { position: { line: 0, character: 3 }, label: [{ value: "main" }, { value: ":" }], kind: 2 },
];

const good = new FakeProbe("good");
const evil = new FakeProbe("evil");
const none = new FakeProbe("none");
const odd = new FakeProbe("odd");
const SERVERS = [
  good.server(
    {
      capabilities: {
        textDocumentSync: 1,
        documentFormattingProvider: true,
        documentRangeFormattingProvider: true,
        inlayHintProvider: true,
      },
      responses: {
        "textDocument/formatting": FORMAT_EDITS,
        "textDocument/rangeFormatting": [edit(1, 0, 1, 2, "    ")],
        "textDocument/inlayHint": HINTS,
      },
    },
    { extensions: { fake: "fake" }, roles: ["semantics"] },
  ),
  // a hostile formatter: code written among the white space
  evil.server(
    {
      capabilities: {
        textDocumentSync: 1,
        documentFormattingProvider: true,
        inlayHintProvider: true,
      },
      responses: {
        "textDocument/formatting": [edit(0, 11, 0, 11, ' system("x"); ')],
        "textDocument/inlayHint": [
          null,
          "hint",
          { label: ": i32" },
          { position: { line: -1, character: 0 }, label: "x" },
          { position: { line: 0, character: 3 }, label: [{ value: 7 }] },
          { position: { line: 0, character: 3 }, label: "kept", kind: 99 },
        ],
      },
    },
    { extensions: { evil: "fake" }, roles: ["semantics"] },
  ),
  none.server({ capabilities: { textDocumentSync: 1 } }, { extensions: { none: "fake" } }),
  odd.server(
    {
      capabilities: {
        textDocumentSync: 1,
        documentFormattingProvider: true,
        inlayHintProvider: true,
      },
      responses: {
        "textDocument/formatting": { not: "a list" },
        "textDocument/inlayHint": Array.from({ length: 400 }, (_, i) => ({
          position: { line: 0, character: 0 },
          label: `hint number ${i} `.repeat(4),
        })),
      },
    },
    { extensions: { odd: "fake" }, roles: ["semantics"] },
  ),
];
const GATED = {
  mutation: "gated",
  mutation_allowlist: ["ci-gate"],
  max_result_bytes: 16_384,
  state_dir: tempDir("theodolite-state-"),
};

afterAll(closeBridgesAndTempDirs);

let bridge: BridgeHandle;
beforeAll(async () => {
  ({ bridge } = await bridgeFor({ ws, servers: SERVERS, bridge: GATED, clientName: "ci-gate" }));
});

describe("inlay_hints", () => {
  test("the whole file's hints at client positions, in order; the request spans the file", async () => {
    const res = await bridge.call("inlay_hints", { file: "ok.fake" });
    expect(res.structured).toEqual({
      hints: [
        { line: 1, column: 4, kind: "parameter", text: "main:" },
        { line: 2, column: 8, kind: "type", text: ": i32" },
      ],
      total: 2,
    });
    const asked = good.requests("textDocument/inlayHint").at(-1)?.params as { range: unknown };
    expect(asked.range).toEqual(r(0, 0, 3, 0));
  });

  test("start_line..end_line asks for those lines, to the last one's end", async () => {
    const two = await bridge.call("inlay_hints", { file: "ok.fake", start_line: 2, end_line: 2 });
    const asked = good.requests("textDocument/inlayHint").at(-1)?.params as { range: unknown };
    expect(asked.range).toEqual(r(1, 0, 1, 10));
    // the fake answers for the whole file, as gopls does: only the lines asked are kept
    expect(two.structured).toEqual({
      hints: [{ line: 2, column: 8, kind: "type", text: ": i32" }],
      total: 1,
    });
    const bad = await bridge.call("inlay_hints", { file: "ok.fake", start_line: 3, end_line: 2 });
    expect(bad.structured.code).toBe("InvalidArgument");
    const outside = await bridge.call("inlay_hints", { file: "ok.fake", end_line: 9 });
    expect(outside.structured.code).toBe("PositionOutOfRange");
  });

  test("malformed hints are dropped, the rest answered", async () => {
    const res = await bridge.call("inlay_hints", { file: "evil.evil" });
    expect(res.structured).toEqual({ hints: [{ line: 1, column: 4, text: "kept" }], total: 1 });
  });

  test("a server without inlay hints: ServerLacksCapability", async () => {
    const res = await bridge.call("inlay_hints", { file: "none.none" });
    expect(res.structured).toMatchObject({
      code: "ServerLacksCapability",
      details: { server: "none", method: "textDocument/inlayHint" },
    });
  });

  test("an answer over max_result_bytes: ResultTooLarge with the real count", async () => {
    const res = await bridge.call("inlay_hints", { file: "odd.odd" });
    expect(res.structured.code).toBe("ResultTooLarge");
    expect((res.structured.details as { count: number }).count).toBe(400);
    expect(res.structured.hint).toContain("start_line..end_line");
  });
});

describe("formatting", () => {
  let editSet = "";

  test("the edits in client positions and order, layout only; options from the file", async () => {
    const res = await bridge.call("formatting", { file: "ok.fake" });
    expect(res.isError).toBe(false);
    expect(res.structured).toEqual({
      edit_set: expect.stringMatching(/^[0-9a-f]{64}$/),
      layout_only: true,
      changes: [
        {
          file: "ok.fake",
          edits: [
            { line: 1, column: 10, end_line: 1, end_column: 10, new_text: " " },
            { line: 2, column: 1, end_line: 2, end_column: 3, new_text: "    " },
            { line: 2, column: 8, end_line: 2, end_column: 8, new_text: " " },
            { line: 2, column: 9, end_line: 2, end_column: 9, new_text: " " },
          ],
        },
      ],
    });
    editSet = res.structured.edit_set as string;
    const asked = good.requests("textDocument/formatting").at(-1)?.params as { options: unknown };
    expect(asked.options).toEqual({ tabSize: 2, insertSpaces: true });
    // the same file, the same edits: the same digest
    const again = await bridge.call("formatting", { file: "ok.fake" });
    expect(again.structured.edit_set).toBe(editSet);
  });

  test("lines: rangeFormatting over them", async () => {
    const res = await bridge.call("formatting", { file: "ok.fake", start_line: 2 });
    expect(res.structured.changes).toEqual([
      {
        file: "ok.fake",
        edits: [{ line: 2, column: 1, end_line: 2, end_column: 3, new_text: "    " }],
      },
    ]);
    const asked = good.requests("textDocument/rangeFormatting").at(-1)?.params as {
      range: unknown;
    };
    expect(asked.range).toEqual(r(1, 0, 3, 0));
  });

  test("a server without formatting, or without range formatting: ServerLacksCapability", async () => {
    const res = await bridge.call("formatting", { file: "none.none" });
    expect(res.structured).toMatchObject({
      code: "ServerLacksCapability",
      details: { method: "textDocument/formatting" },
    });
    const ranged = await bridge.call("formatting", { file: "evil.evil", end_line: 1 });
    expect(ranged.structured).toMatchObject({
      code: "ServerLacksCapability",
      details: { method: "textDocument/rangeFormatting" },
    });
  });

  test("an answer that is no list of edits: EditInvalid", async () => {
    const res = await bridge.call("formatting", { file: "odd.odd" });
    expect(res.structured.code).toBe("EditInvalid");
  });

  test("a formatting that writes code is shown as not layout only", async () => {
    const res = await bridge.call("formatting", { file: "evil.evil" });
    expect(res.structured.layout_only).toBe(false);
  });

  describe("formatting_apply", () => {
    test("an edit_set that is no digest: InvalidArgument; another digest: EditInvalid, nothing written", async () => {
      const bad = await bridge.call("formatting_apply", { file: "ok.fake", edit_set: "xyz" });
      expect(bad.structured.code).toBe("InvalidArgument");
      const other = await bridge.call("formatting_apply", {
        file: "ok.fake",
        edit_set: "0".repeat(64),
      });
      expect(other.structured).toMatchObject({
        code: "EditInvalid",
        details: { reason: "not_previewed", previewed: "0".repeat(64), edit_set: editSet },
      });
      expect(ws.read("ok.fake")).toBe(OK);
    });

    test("a hostile formatter's code: EditInvalid not_layout, nothing written", async () => {
      const res = await bridge.call("formatting_apply", { file: "evil.evil" });
      expect(res.structured).toMatchObject({
        code: "EditInvalid",
        details: { file: "evil.evil", reason: "not_layout", line: 1, column: 12 },
      });
      expect(ws.read("evil.evil")).toBe(EVIL);
    });

    test("the previewed edit set is written exactly, and answered", async () => {
      const res = await bridge.call("formatting_apply", { file: "ok.fake", edit_set: editSet });
      expect(res.isError).toBe(false);
      expect(res.structured.edit_set).toBe(editSet);
      expect((res.structured.changes as { edits: unknown[] }[])[0]?.edits.length).toBe(4);
      expect(ws.read("ok.fake")).toBe(FORMATTED);
      const status = await bridge.call("session_status");
      const recorded = (status.structured.gate_decisions as Record<string, unknown>[]).map((d) => [
        d.tool,
        d.allow,
        d.reason,
        d.files,
      ]);
      expect(recorded).toEqual([["formatting_apply", true, "allowed", 1]]);
    });
  });
});

test("without the apply class: formatting_apply is not listed, and UnsupportedMethod", async () => {
  const { bridge: plain } = await bridgeFor({ ws, servers: SERVERS });
  const names = (await plain.client.listTools()).tools.map((t) => t.name);
  expect(names).toContain("formatting");
  expect(names).toContain("inlay_hints");
  expect(names).not.toContain("formatting_apply");
  const res = await plain.call("formatting_apply", { file: "ok.fake" });
  expect(res.structured.code).toBe("UnsupportedMethod");
});
