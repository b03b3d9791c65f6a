/**
 * tsserver's diagnostics as LSP (src/session/tsserver-diagnostics.ts): the conversion tls
 * applies to what it publishes — 1-based line and offset to 0-based, categories to
 * severities, related spans to locations, tags — and malformed items dropped.
 */
import { expect, test } from "bun:test";
import { DiagnosticSeverity, DiagnosticTag } from "vscode-languageserver-protocol";
import {
  diagnosticsOfResponse,
  fromTsserver,
  TSSERVER_REQUEST,
  tsserverDiagnostics,
} from "../../../src/session/tsserver-diagnostics.ts";

const span = (line: number, offset: number, endOffset: number) => ({
  start: { line, offset },
  end: { line, offset: endOffset },
});

test("a tsserver diagnostic becomes tls's LSP diagnostic", () => {
  expect(
    fromTsserver({
      ...span(3, 14, 19),
      text: "Type 'string' is not assignable to type 'number'.",
      code: 2322,
      category: "error",
      relatedInformation: [
        { message: "declared here", span: { ...span(1, 1, 5), file: "/w/a b.ts" } },
        { message: "no span" },
      ],
    }),
  ).toEqual({
    range: { start: { line: 2, character: 13 }, end: { line: 2, character: 18 } },
    message: "Type 'string' is not assignable to type 'number'.",
    severity: DiagnosticSeverity.Error,
    source: "typescript",
    code: 2322,
    relatedInformation: [
      {
        location: {
          uri: "file:///w/a%20b.ts",
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 4 } },
        },
        message: "declared here",
      },
    ],
  });
});

test("categories, tags and a server-named source", () => {
  const base = { ...span(1, 1, 2), text: "x" };
  const suggestion = fromTsserver({ ...base, category: "suggestion", reportsUnnecessary: true });
  expect(suggestion?.severity).toBe(DiagnosticSeverity.Hint);
  expect(suggestion?.tags).toEqual([DiagnosticTag.Unnecessary]);
  expect(fromTsserver({ ...base, category: "warning" })?.severity).toBe(DiagnosticSeverity.Warning);
  expect(fromTsserver({ ...base, category: "message" })?.severity).toBe(DiagnosticSeverity.Error);
  expect(fromTsserver({ ...base, source: "ts-plugin" })?.source).toBe("ts-plugin");
});

test("malformed items are dropped, a body that is no list is no diagnostics", () => {
  expect(fromTsserver(null)).toBeUndefined();
  expect(
    fromTsserver({ start: { line: 1 }, end: { line: 1, offset: 2 }, text: "x" }),
  ).toBeUndefined();
  expect(diagnosticsOfResponse({ success: false, message: "No Project." })).toEqual([]);
  expect(diagnosticsOfResponse({ body: [null, { ...span(1, 1, 1), text: "t" }] })).toHaveLength(1);
});

test("the three kinds are asked for the file, through the tls command", async () => {
  const asked: unknown[] = [];
  const out = await tsserverDiagnostics(async (_type, params) => {
    asked.push(params);
    return { body: [{ ...span(1, 1, 2), text: String(params.arguments[0]) }] };
  }, "/w/a.ts");
  expect(asked).toEqual(
    ["syntacticDiagnosticsSync", "semanticDiagnosticsSync", "suggestionDiagnosticsSync"].map(
      (kind) => ({
        command: TSSERVER_REQUEST,
        arguments: [kind, { file: "/w/a.ts", includeLinePosition: false }],
      }),
    ),
  );
  expect(out.map((d) => d.message)).toEqual([
    "syntacticDiagnosticsSync",
    "semanticDiagnosticsSync",
    "suggestionDiagnosticsSync",
  ]);
});
