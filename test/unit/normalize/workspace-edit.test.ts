import { describe, expect, test } from "bun:test";
import type { WorkspaceEdit } from "vscode-languageserver-protocol";
import { flattenWorkspaceEdit, normalizeFileEdits } from "../../../src/normalize/workspace-edit.ts";
import { edit, fileUri, fixtureContext, r } from "../../support/normalize-context.ts";
import { thrown } from "../../support/thrown.ts";

const A = fileUri("a.ts");
const B = fileUri("b.ts");
const FILES = { "a.ts": "let old = 1;\nold++;\n", "b.ts": "import { old } from './a';\n" };
const { ctx } = fixtureContext(FILES);

describe("flattenWorkspaceEdit", () => {
  test("`changes`: sorted by uri, empty documents dropped", () => {
    const given: WorkspaceEdit = {
      changes: {
        [B]: [edit(0, 9, 0, 12, "neu")],
        [A]: [edit(0, 4, 0, 7, "neu")],
        [fileUri("c.ts")]: [],
      },
    };
    expect(flattenWorkspaceEdit(given)).toEqual([
      { uri: A, edits: [edit(0, 4, 0, 7, "neu")] },
      { uri: B, edits: [edit(0, 9, 0, 12, "neu")] },
    ]);
  });

  test("`documentChanges`: the same document twice is merged in order; annotations dropped", () => {
    const given: WorkspaceEdit = {
      documentChanges: [
        {
          textDocument: { uri: B, version: 1 },
          edits: [edit(0, 9, 0, 12, "neu")],
        },
        { textDocument: { uri: A, version: 3 }, edits: [edit(1, 0, 1, 3, "neu")] },
        {
          textDocument: { uri: A, version: 3 },
          edits: [{ range: r(0, 4, 0, 7), newText: "neu", annotationId: "rename" }],
        },
      ],
      changes: { [fileUri("ignored.ts")]: [edit(0, 0, 0, 0, "x")] },
    };
    expect(flattenWorkspaceEdit(given)).toEqual([
      {
        uri: A,
        edits: [edit(1, 0, 1, 3, "neu"), edit(0, 4, 0, 7, "neu")],
      },
      { uri: B, edits: [edit(0, 9, 0, 12, "neu")] },
    ]);
  });

  test("file create/rename/delete anywhere → ResourceOperationRejected", () => {
    const text = { textDocument: { uri: A, version: 1 }, edits: [] };
    const create = thrown(() =>
      flattenWorkspaceEdit({ documentChanges: [text, { kind: "create", uri: fileUri("n.ts") }] }),
    );
    expect(create.code).toBe("ResourceOperationRejected");
    expect(create.details).toEqual({ kind: "create", uri: fileUri("n.ts") });
    const rename = thrown(() =>
      flattenWorkspaceEdit({ documentChanges: [{ kind: "rename", oldUri: A, newUri: B }] }),
    );
    expect(rename.details).toEqual({ kind: "rename", uri: A });
    const del = thrown(() =>
      flattenWorkspaceEdit({ documentChanges: [{ kind: "delete", uri: B }] }),
    );
    expect(del.details).toEqual({ kind: "delete", uri: B });
  });

  test("snippet edits and malformed edits → EditInvalid", () => {
    const snippet = {
      documentChanges: [
        {
          textDocument: { uri: A, version: 1 },
          edits: [{ range: r(0, 0, 0, 0), snippet: { kind: "snippet", value: "$1" } }],
        },
      ],
    } as unknown as WorkspaceEdit;
    expect(thrown(() => flattenWorkspaceEdit(snippet)).code).toBe("EditInvalid");
    const noText = { changes: { [A]: [{ range: r(0, 0, 0, 0) }] } } as unknown as WorkspaceEdit;
    expect(thrown(() => flattenWorkspaceEdit(noText)).code).toBe("EditInvalid");
  });

  test("nothing to do", () => {
    expect(flattenWorkspaceEdit(null)).toEqual([]);
    expect(flattenWorkspaceEdit(undefined)).toEqual([]);
    expect(flattenWorkspaceEdit({})).toEqual([]);
  });
});

describe("normalizeFileEdits", () => {
  test("client ranges, canonical order, absolute path for files outside", () => {
    const out = normalizeFileEdits(
      [
        { uri: "file:///outside/x.ts", edits: [edit(2, 0, 2, 3, "neu")] },
        { uri: B, edits: [edit(0, 9, 0, 12, "neu")] },
        {
          uri: A,
          edits: [edit(1, 0, 1, 3, "neu"), edit(0, 4, 0, 7, "neu")],
        },
      ],
      ctx,
    );
    expect(out).toEqual([
      {
        file: "a.ts",
        edits: [
          { line: 1, column: 5, end_line: 1, end_column: 8, new_text: "neu" },
          { line: 2, column: 1, end_line: 2, end_column: 4, new_text: "neu" },
        ],
      },
      {
        file: "b.ts",
        edits: [{ line: 1, column: 10, end_line: 1, end_column: 13, new_text: "neu" }],
      },
      {
        file: "/outside/x.ts",
        edits: [{ line: 3, column: 1, end_line: 3, end_column: 4, new_text: "neu" }],
      },
    ]);
  });

  test("inserts at one position keep the server's order", () => {
    const out = normalizeFileEdits(
      [
        {
          uri: A,
          edits: [edit(0, 0, 0, 0, "b"), edit(0, 0, 0, 0, "a")],
        },
      ],
      ctx,
    );
    expect(out[0]?.edits.map((e) => e.new_text)).toEqual(["b", "a"]);
  });

  test("non-file URIs → EditInvalid (not a target the applier can check)", () => {
    const err = thrown(() =>
      normalizeFileEdits([{ uri: "untitled:1", edits: [edit(0, 0, 0, 0, "x")] }], ctx),
    );
    expect(err.code).toBe("EditInvalid");
    expect(err.details).toEqual({ uri: "untitled:1" });
  });
});
