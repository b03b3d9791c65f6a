/**
 * Generated and canned results of the fake server: `huge` lists, diagnostics
 * from their compact scenario form, the default `workspace/applyEdit` edit.
 * Pure functions, so the server's wiring (fake-ls.ts) stays small.
 */
import type {
  Diagnostic,
  DocumentSymbol,
  Location,
  SymbolInformation,
  WorkspaceEdit,
} from "vscode-languageserver-protocol";
import type { DiagnosticSpec } from "./scenario.ts";

const LOCATION_METHODS = new Set([
  "textDocument/definition",
  "textDocument/declaration",
  "textDocument/typeDefinition",
  "textDocument/implementation",
  "textDocument/references",
]);

function lineRange(line: number, width: number) {
  return { start: { line, character: 0 }, end: { line, character: width } };
}

/** `count` items of the shape `method` answers with, all in `uri`. */
export function hugeResult(method: string, count: number, uri: string): unknown {
  const n = Math.max(0, Math.trunc(count));
  const indexes = Array.from({ length: n }, (_, i) => i);
  if (LOCATION_METHODS.has(method)) {
    return indexes.map((i): Location => ({ uri, range: lineRange(i, 5) }));
  }
  if (method === "workspace/symbol") {
    return indexes.map(
      (i): SymbolInformation => ({
        name: `symbol_${i}`,
        kind: 12,
        location: { uri, range: lineRange(i, 8) },
        containerName: "huge",
      }),
    );
  }
  if (method === "textDocument/documentSymbol") {
    return indexes.map(
      (i): DocumentSymbol => ({
        name: `symbol_${i}`,
        kind: 12,
        range: lineRange(i, 8),
        selectionRange: lineRange(i, 8),
      }),
    );
  }
  if (method === "textDocument/diagnostic") {
    return {
      kind: "full",
      items: indexes.map(
        (i): Diagnostic => ({ range: lineRange(i, 1), severity: 1, message: `problem ${i}` }),
      ),
    };
  }
  throw new Error(`fake-ls: huge is not defined for ${method}`);
}

export function toDiagnostic(d: DiagnosticSpec): Diagnostic {
  const out: Diagnostic = {
    range: {
      start: { line: d.line, character: d.character },
      end: { line: d.end_line ?? d.line, character: d.end_character },
    },
    message: d.message,
  };
  if (d.severity !== undefined) out.severity = d.severity as Diagnostic["severity"];
  if (d.code !== undefined) out.code = d.code;
  if (d.source !== undefined) out.source = d.source;
  if (d.data !== undefined) out.data = d.data;
  return out;
}

/** The default `workspace/applyEdit` payload: overwrite the start of line 1 of `uri`. */
export function defaultApplyEdit(uri: string): WorkspaceEdit {
  return { changes: { [uri]: [{ range: lineRange(0, 0), newText: "APPLIED BY SERVER\n" }] } };
}

/** The document a request is about, if it names one. */
export function requestUri(params: unknown): string | undefined {
  const td = (params as { textDocument?: { uri?: unknown } } | null)?.textDocument;
  return typeof td?.uri === "string" ? td.uri : undefined;
}

/** One diagnostic per match of `pattern` in `text` (columns counted in UTF-16 units). */
export function matchDiagnostics(
  text: string,
  spec: { pattern: string; message: string; severity?: number },
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  for (const [line, content] of lines.entries()) {
    for (const m of content.matchAll(new RegExp(spec.pattern, "g"))) {
      const character = m.index ?? 0;
      out.push({
        range: lspRange(line, character, character + m[0].length),
        severity: (spec.severity ?? 1) as Diagnostic["severity"],
        message: spec.message,
      });
    }
  }
  return out;
}

function lspRange(line: number, character: number, end: number) {
  return { start: { line, character }, end: { line, character: end } };
}

/** One DocumentSymbol per match of `pattern` in the text (ASCII columns), named by the match. */
export function matchSymbols(text: string, pattern: string): DocumentSymbol[] {
  return matchDiagnostics(text, { pattern, message: "" }).map((d) => {
    const line = text.split(/\r\n|\r|\n/)[d.range.start.line] ?? "";
    const name = line.slice(d.range.start.character, d.range.end.character);
    return { name, kind: 12, range: d.range, selectionRange: d.range };
  });
}
